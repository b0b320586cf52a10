//! HLO shardings: how an SPMD program's array is split over its partitions, in XLA's text
//! form (`{devices=[2,1]<=[2]}`, `{devices=[2,2]0,2,1,3 last_tile_dim_replicate}`,
//! `{replicated}`, `{manual}`, `{maximal device=3}`, tuples `{{..}, {..}}`). Shardy's named
//! axes are turned into this form by the importer, so one representation reaches the passes.
//!
//! A tiled sharding is an array of partition ids (the tile assignment) whose first `rank`
//! dimensions split the array's dimensions and whose trailing "subgroup" dimensions hold
//! copies (replicated) or independent per-device values (manual). Partition `p` holds the
//! tile at its coordinates; a dimension of size `n` split `t` ways has shards of
//! `ceil(n / t)` (the last ones padded when `t` does not divide `n`).

use std::fmt;

use crate::{Error, Result};

/// What a trailing tile-assignment dimension beyond the array's rank holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subgroup {
    /// Every partition along it holds the same value.
    Replicated,
    /// Partitions along it hold their own values (inside a `shard_map`).
    Manual,
    /// Partitions along it hold partial sums: the value is their sum.
    Unreduced,
}

/// A tile assignment: `dims` tiles per array dimension and then per subgroup dimension, and
/// the partition at each tile, row-major over `dims`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    pub dims: Vec<usize>,
    pub devices: Vec<usize>,
    pub subgroups: Vec<Subgroup>,
}

/// An HLO sharding (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HloSharding {
    Replicated,
    /// The whole array on one partition.
    Maximal(usize),
    /// Every partition holds its own value (the body of a `shard_map`).
    Manual,
    Tiled(Tiling),
    Tuple(Vec<HloSharding>),
}

impl Tiling {
    /// The number of array dimensions the assignment splits.
    pub fn rank(&self) -> usize {
        self.dims.len() - self.subgroups.len()
    }

    /// Tiles along each array dimension.
    pub fn data_dims(&self) -> &[usize] {
        &self.dims[..self.rank()]
    }

    /// The coordinates (array then subgroup dimensions) of `device`, or `None` when the
    /// assignment does not name it.
    pub fn coords(&self, device: usize) -> Option<Vec<usize>> {
        let mut flat = self.devices.iter().position(|&d| d == device)?;
        let mut c = vec![0; self.dims.len()];
        for k in (0..self.dims.len()).rev() {
            c[k] = flat % self.dims[k];
            flat /= self.dims[k];
        }
        Some(c)
    }

    /// The device at `coords` (all dimensions).
    pub fn device_at(&self, coords: &[usize]) -> usize {
        let flat = coords
            .iter()
            .zip(&self.dims)
            .fold(0, |acc, (&c, &n)| acc * n + c);
        self.devices[flat]
    }

    /// The groups of devices that differ only in their coordinates along the dimensions
    /// `along` (of the whole assignment), each ordered by those coordinates row-major.
    pub fn groups_along(&self, along: &[usize]) -> Vec<Vec<usize>> {
        let n = self.dims.len();
        let others: Vec<usize> = (0..n).filter(|k| !along.contains(k)).collect();
        let count = |ks: &[usize]| ks.iter().map(|&k| self.dims[k]).product::<usize>();
        let unflatten = |mut i: usize, ks: &[usize], c: &mut [usize]| {
            for &k in ks.iter().rev() {
                c[k] = i % self.dims[k];
                i /= self.dims[k];
            }
        };
        let mut groups = Vec::new();
        let mut c = vec![0; n];
        for o in 0..count(&others) {
            unflatten(o, &others, &mut c);
            let mut g = Vec::new();
            for a in 0..count(along) {
                unflatten(a, along, &mut c);
                g.push(self.device_at(&c));
            }
            groups.push(g);
        }
        groups
    }

    /// The same partitions arranged with the assignment's dimensions permuted: dimension `k`
    /// of the result is dimension `perm[k]` of this one.
    pub fn transpose_devices(&self, perm: &[usize]) -> Vec<usize> {
        let dims: Vec<usize> = perm.iter().map(|&p| self.dims[p]).collect();
        let total: usize = dims.iter().product();
        let mut out = Vec::with_capacity(total);
        let mut c = vec![0; dims.len()];
        let mut src = vec![0; dims.len()];
        for mut i in 0..total {
            for k in (0..dims.len()).rev() {
                c[k] = i % dims[k];
                i /= dims[k];
            }
            for (k, &p) in perm.iter().enumerate() {
                src[p] = c[k];
            }
            out.push(self.device_at(&src));
        }
        out
    }
}

impl HloSharding {
    /// Parses XLA's text form.
    pub fn parse(text: &str) -> Result<HloSharding> {
        let mut p = Cursor {
            s: text.trim().as_bytes(),
            i: 0,
            text,
        };
        let s = p.sharding()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(p.err("trailing text"));
        }
        Ok(s)
    }

    /// A tiled sharding; one that splits nothing (every array dimension in one tile, no
    /// manual subgroup) is [`HloSharding::Replicated`].
    pub fn tiled(dims: Vec<usize>, devices: Vec<usize>, subgroups: Vec<Subgroup>) -> HloSharding {
        let t = Tiling {
            dims,
            devices,
            subgroups,
        };
        // Subgroup dimensions of one tile say nothing.
        let mut t = t;
        let r = t.rank();
        let mut k = t.dims.len();
        while k > r {
            k -= 1;
            if t.dims[k] == 1 {
                t.dims.remove(k);
                t.subgroups.remove(k - r);
            }
        }
        if t.data_dims().iter().all(|&d| d == 1)
            && t.subgroups.iter().all(|&g| g == Subgroup::Replicated)
        {
            return HloSharding::Replicated;
        }
        HloSharding::Tiled(t)
    }

    /// The tiling, when the array is split or holds partial sums (not replicated, maximal,
    /// manual or a tuple).
    pub fn tiling(&self) -> Option<&Tiling> {
        match self {
            HloSharding::Tiled(t) if !t.subgroups.contains(&Subgroup::Manual) => Some(t),
            _ => None,
        }
    }

    /// Tiles along each of `rank` array dimensions (all 1 unless tiled).
    pub fn tiles(&self, rank: usize) -> Vec<usize> {
        match self.tiling() {
            Some(t) if t.rank() == rank => t.data_dims().to_vec(),
            _ => vec![1; rank],
        }
    }

    /// Whether every partition holds the whole array.
    pub fn is_replicated(&self) -> bool {
        match self {
            HloSharding::Replicated => true,
            HloSharding::Tiled(t) => {
                t.data_dims().iter().all(|&d| d == 1)
                    && t.subgroups.iter().all(|&g| g == Subgroup::Replicated)
            }
            HloSharding::Tuple(v) => v.iter().all(|s| s.is_replicated()),
            _ => false,
        }
    }

    /// The per-partition shape of an array of `dims`: each split dimension rounded up.
    pub fn shard_dims(&self, dims: &[i64]) -> Vec<i64> {
        let tiles = self.tiles(dims.len());
        dims.iter()
            .zip(&tiles)
            .map(|(&n, &t)| (n + t as i64 - 1) / t as i64)
            .collect()
    }

    /// The subgroup dimension (of the whole tile assignment) holding partial sums, if any.
    pub fn unreduced_dim(&self) -> Option<usize> {
        let t = self.tiling()?;
        let r = t.rank();
        t.subgroups
            .iter()
            .position(|&g| g == Subgroup::Unreduced)
            .map(|k| r + k)
    }

    /// The same split with partial sums summed (the unreduced subgroup made copies).
    pub fn reduced(&self) -> HloSharding {
        match self {
            HloSharding::Tiled(t) if self.unreduced_dim().is_some() => {
                // The trailing subgroup dimensions merge into one of copies.
                let r = t.rank();
                let mut dims: Vec<usize> = t.data_dims().to_vec();
                dims.push(t.dims[r..].iter().product());
                HloSharding::tiled(dims, t.devices.clone(), vec![Subgroup::Replicated])
            }
            s => s.clone(),
        }
    }

    /// Whether every split dimension of an array of `dims` divides evenly.
    pub fn is_even(&self, dims: &[i64]) -> bool {
        let tiles = self.tiles(dims.len());
        dims.iter().zip(&tiles).all(|(&n, &t)| n % t as i64 == 0)
    }
}

impl fmt::Display for HloSharding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HloSharding::Replicated => write!(f, "{{replicated}}"),
            HloSharding::Manual => write!(f, "{{manual}}"),
            HloSharding::Maximal(d) => write!(f, "{{maximal device={d}}}"),
            HloSharding::Tuple(v) => {
                write!(f, "{{")?;
                for (i, s) in v.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{s}")?;
                }
                write!(f, "}}")
            }
            HloSharding::Tiled(t) => {
                let list =
                    |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
                write!(f, "{{devices=[{}]", list(&t.dims))?;
                if t.devices.iter().enumerate().all(|(i, &d)| i == d) {
                    write!(f, "<=[{}]", t.devices.len())?;
                } else {
                    write!(f, "{}", list(&t.devices))?;
                }
                match &t.subgroups[..] {
                    [] => {}
                    [Subgroup::Replicated] => write!(f, " last_tile_dim_replicate")?,
                    kinds => {
                        let names: Vec<&str> = kinds
                            .iter()
                            .map(|k| match k {
                                Subgroup::Replicated => "replicated",
                                Subgroup::Manual => "manual",
                                Subgroup::Unreduced => "unreduced",
                            })
                            .collect();
                        write!(f, " last_tile_dims={{{}}}", names.join(", "))?;
                    }
                }
                write!(f, "}}")
            }
        }
    }
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
}

impl Cursor<'_> {
    fn err(&self, what: &str) -> Error {
        Error::invalid(format!(
            "HLO sharding {:?}: {what} at offset {}",
            self.text, self.i
        ))
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] as char).is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        if self.s[self.i..].starts_with(t.as_bytes()) {
            self.i += t.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str) -> Result<()> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.err(&format!("expected {t:?}")))
        }
    }
    fn number(&mut self) -> Result<usize> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| self.err("expected a number"))
    }
    fn list(&mut self) -> Result<Vec<usize>> {
        self.expect("[")?;
        let mut v = Vec::new();
        if self.eat("]") {
            return Ok(v);
        }
        loop {
            v.push(self.number()?);
            if self.eat("]") {
                return Ok(v);
            }
            self.expect(",")?;
        }
    }
    /// Skips a balanced `{...}` or a quoted string (metadata the passes do not use).
    fn skip_value(&mut self) -> Result<()> {
        self.ws();
        let mut depth = 0usize;
        let mut quoted = false;
        while self.i < self.s.len() {
            let c = self.s[self.i];
            self.i += 1;
            match c {
                b'"' => quoted = !quoted,
                b'\\' if quoted => self.i += 1,
                b'{' if !quoted => depth += 1,
                b'}' if !quoted => {
                    if depth == 0 {
                        self.i -= 1;
                        return Ok(());
                    }
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                b',' | b' ' if !quoted && depth == 0 => return Ok(()),
                _ => {}
            }
        }
        Err(self.err("unterminated attribute"))
    }
    fn sharding(&mut self) -> Result<HloSharding> {
        self.expect("{")?;
        self.ws();
        if self.eat("}") {
            return Ok(HloSharding::Tuple(Vec::new()));
        }
        if self.s.get(self.i) == Some(&b'{') {
            let mut v = vec![self.sharding()?];
            while self.eat(",") {
                v.push(self.sharding()?);
            }
            self.expect("}")?;
            return Ok(HloSharding::Tuple(v));
        }
        let s = if self.eat("replicated") {
            HloSharding::Replicated
        } else if self.eat("manual") {
            HloSharding::Manual
        } else if self.eat("maximal") {
            self.expect("device=")?;
            HloSharding::Maximal(self.number()?)
        } else if self.eat("devices=") {
            let dims = self.list()?;
            let total: usize = dims.iter().product();
            let devices = if self.eat("<=") {
                let reshape = self.list()?;
                let perm = if self.eat("T(") {
                    let mut p = vec![self.number()?];
                    while self.eat(",") {
                        p.push(self.number()?);
                    }
                    self.expect(")")?;
                    p
                } else {
                    (0..reshape.len()).collect()
                };
                iota_devices(&reshape, &perm).ok_or_else(|| self.err("bad iota tile assignment"))?
            } else {
                let mut v = vec![self.number()?];
                while self.eat(",") {
                    v.push(self.number()?);
                }
                v
            };
            if devices.len() != total || dims.contains(&0) {
                return Err(self.err(&format!(
                    "{} devices for a tile assignment of {total}",
                    devices.len()
                )));
            }
            let mut sorted = devices.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return Err(self.err("a device appears twice in the tile assignment"));
            }
            let mut subgroups = Vec::new();
            loop {
                if self.eat("last_tile_dim_replicate") {
                    subgroups = vec![Subgroup::Replicated];
                } else if self.eat("last_tile_dims={") {
                    subgroups.clear();
                    loop {
                        if self.eat("replicated") {
                            subgroups.push(Subgroup::Replicated);
                        } else if self.eat("manual") {
                            subgroups.push(Subgroup::Manual);
                        } else if self.eat("unreduced") {
                            subgroups.push(Subgroup::Unreduced);
                        } else {
                            return Err(self.err("unknown subgroup kind"));
                        }
                        if self.eat("}") {
                            break;
                        }
                        self.expect(",")?;
                    }
                } else {
                    break;
                }
            }
            if subgroups.len() > dims.len() {
                return Err(self.err("more subgroup dimensions than tile dimensions"));
            }
            HloSharding::tiled(dims, devices, subgroups)
        } else {
            return Err(self.err("unknown sharding"));
        };
        // Attributes Oxla does not use (metadata={...}, shard_as ...).
        loop {
            self.ws();
            if self.eat("}") {
                return Ok(s);
            }
            if self.i >= self.s.len() {
                return Err(self.err("expected \"}\""));
            }
            let start = self.i;
            while self.i < self.s.len() && !b"={} ".contains(&self.s[self.i]) {
                self.i += 1;
            }
            if self.eat("=") {
                self.skip_value()?;
            }
            if self.i == start {
                return Err(self.err("unexpected character"));
            }
        }
    }
}

/// `iota(product(reshape))` reshaped to `reshape`, transposed by `perm`, flattened.
fn iota_devices(reshape: &[usize], perm: &[usize]) -> Option<Vec<usize>> {
    if perm.len() != reshape.len() {
        return None;
    }
    let mut seen = vec![false; perm.len()];
    for &p in perm {
        if p >= perm.len() || std::mem::replace(&mut seen[p], true) {
            return None;
        }
    }
    let t = Tiling {
        dims: reshape.to_vec(),
        devices: (0..reshape.iter().product()).collect(),
        subgroups: Vec::new(),
    };
    Some(t.transpose_devices(perm))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(s: &str) -> String {
        HloSharding::parse(s).unwrap().to_string()
    }

    #[test]
    fn parses_and_prints_xla_forms() {
        assert_eq!(round("{replicated}"), "{replicated}");
        assert_eq!(round("{manual}"), "{manual}");
        assert_eq!(round("{maximal device=3}"), "{maximal device=3}");
        assert_eq!(round("{devices=[4,1]<=[4]}"), "{devices=[4,1]<=[4]}");
        assert_eq!(round("{devices=[2,2]0,2,1,3}"), "{devices=[2,2]0,2,1,3}");
        assert_eq!(
            round("{devices=[2,2]<=[2,2]T(1,0)}"),
            "{devices=[2,2]0,2,1,3}"
        );
        assert_eq!(
            round("{devices=[2,1,2]<=[4] last_tile_dim_replicate}"),
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"
        );
        assert_eq!(
            round("{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}"),
            "{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}"
        );
        let u = HloSharding::parse("{devices=[2,2,2]<=[8] last_tile_dims={unreduced, replicated}}")
            .unwrap();
        assert!(!u.is_replicated());
        assert_eq!(u.unreduced_dim(), Some(1));
        assert_eq!(
            u.reduced(),
            HloSharding::parse("{devices=[2,4]<=[8] last_tile_dim_replicate}").unwrap()
        );
        assert_eq!(round("{devices=[1,1]<=[1]}"), "{replicated}");
        assert_eq!(
            round("{{replicated}, {devices=[2]<=[2]}}"),
            "{{replicated}, {devices=[2]<=[2]}}"
        );
        assert_eq!(
            round("{devices=[2]0,1 metadata={op_name=\"a}\"}}"),
            "{devices=[2]<=[2]}"
        );
        // A replicate subgroup of one tile is dropped.
        assert_eq!(
            round("{devices=[2,1]<=[2] last_tile_dim_replicate}"),
            "{devices=[2]<=[2]}"
        );
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in [
            "",
            "{",
            "{devices=[2,2]0,1,2}",
            "{devices=[2]0,0}",
            "{devices=[2]<=[2]T(0,0)}",
            "{bogus}",
            "{replicated} x",
            "{devices=[2]0,1 last_tile_dims={sideways}}",
        ] {
            assert!(HloSharding::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn coordinates_and_groups() {
        let s = HloSharding::parse("{devices=[2,2]<=[2,2]T(1,0)}").unwrap();
        let t = s.tiling().unwrap();
        assert_eq!(t.devices, vec![0, 2, 1, 3]);
        assert_eq!(t.coords(2), Some(vec![0, 1]));
        assert_eq!(t.device_at(&[1, 0]), 1);
        assert_eq!(t.groups_along(&[0]), vec![vec![0, 1], vec![2, 3]]);
        assert_eq!(t.groups_along(&[1]), vec![vec![0, 2], vec![1, 3]]);
        assert_eq!(t.groups_along(&[0, 1]), vec![vec![0, 2, 1, 3]]);
        assert_eq!(s.shard_dims(&[5, 8]), vec![3, 4]);
        assert!(!s.is_even(&[5, 8]));
        assert!(s.is_even(&[6, 8]));
    }
}
