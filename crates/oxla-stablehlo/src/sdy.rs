//! Shardy (`sdy` dialect) attributes as Oxla reads them: meshes, tensor shardings, manual axes
//! and sharding rules. The text parser (`parser/sdy.rs`) and the bytecode reader
//! (`bytecode/sdy.rs`) both give them as `Attr::Struct`s of the forms below; this module reads
//! them back as typed values and turns a tensor sharding on a mesh into the HLO sharding
//! (`{devices=[8,1]<=[8]}`) that the SPMD pass and PJRT speak.
//!
//! The forms (field names follow Shardy's attribute parameters):
//!
//! | attribute | `Attr` |
//! |---|---|
//! | `#sdy.mesh<["x"=2, "y"=4], device_ids=[..]>` | `Struct("sdy.mesh", [axes: Array of Struct("sdy.mesh_axis", [name: Str, size: Int]), device_ids: I64Array])` |
//! | `"x":(1)2` (an axis or sub-axis) | `Struct("sdy.axis_ref", [name: Str, sub_axis_info?: Struct("sdy.sub_axis_info", [pre_size: Int, size: Int])])` |
//! | `{"x", "y"}p1`, `{?}` (one dimension) | `Struct("sdy.dimension_sharding", [axes: Array, is_closed: Bool, priority?: Int])` |
//! | `#sdy.sharding<@mesh, [..], replicated={..}, unreduced={..}>` | `Struct("sdy.sharding", [mesh: Symbol or sdy.mesh, dim_shardings: Array, replicated_axes: Array, unreduced_axes: Array])` |
//! | `#sdy.sharding_per_value<[..]>` | `Struct("sdy.sharding_per_value", [shardings: Array])` |
//! | `#sdy.manual_axes<{"x"}>` / `manual_axes={"x"}` | `Struct("sdy.manual_axes", [axes: Array of Str])` |
//! | `#sdy.op_sharding_rule<..>` | `Struct("sdy.op_sharding_rule", [factor_sizes: I64Array, operand_mappings, result_mappings: Array (per tensor) of Array (per dimension) of I64Array (factor indices), reduction_factors, need_replication_factors, permutation_factors, blocked_propagation_factors: I64Array, is_custom_rule: Bool])` |
//!
//! Sharding rules say how Shardy may propagate through an op, never what it computes: they
//! are read so that a program decodes, and not used.

use oxla_hlo::{Error, Result};

use crate::ast::{Attr, Module};

/// A device mesh: named axes (major to minor) and, optionally, the device order.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Axis names and sizes.
    pub axes: Vec<(String, i64)>,
    /// The devices of the mesh in row-major order; empty means `0..size` (iota).
    pub device_ids: Vec<i64>,
}

/// An axis of a mesh, or a sub-axis of one: `"x":(pre_size)size`.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisRef {
    /// The mesh axis.
    pub name: String,
    /// For a sub-axis: the product of the sizes of the sub-axes before it (major) and its
    /// own size.
    pub sub: Option<(i64, i64)>,
}

/// A tensor sharding: per dimension, the axes it is split over (major to minor).
#[derive(Clone, Debug, PartialEq)]
pub struct TensorSharding {
    /// The mesh: a reference to a module's `sdy.mesh` by name, or the mesh itself.
    pub mesh: MeshRef,
    /// Per dimension, the axes the dimension is sharded over.
    pub dims: Vec<Vec<AxisRef>>,
    /// Axes over which the tensor is explicitly replicated.
    pub replicated: Vec<AxisRef>,
    /// Axes over which the tensor holds partial values still to be reduced.
    pub unreduced: Vec<AxisRef>,
}

/// How a sharding names its mesh.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshRef {
    /// `@name`: an `sdy.mesh` of the module.
    Named(String),
    /// The mesh written inline.
    Inline(Mesh),
}

fn bad(what: &str, a: &Attr) -> Error {
    Error::invalid(format!("Shardy attribute: expected {what}, found {a:?}"))
}

fn struct_fields<'a>(a: &'a Attr, name: &str) -> Result<&'a [(String, Attr)]> {
    match a {
        Attr::Struct(n, f) if n == name => Ok(f),
        _ => Err(bad(&format!("#{name}"), a)),
    }
}

fn field<'a>(f: &'a [(String, Attr)], name: &str) -> Option<&'a Attr> {
    f.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

fn list<'a>(f: &'a [(String, Attr)], name: &str) -> Result<&'a [Attr]> {
    match field(f, name) {
        None => Ok(&[]),
        Some(Attr::Array(v)) => Ok(v),
        Some(a) => Err(bad(&format!("a list for {name}"), a)),
    }
}

fn int(f: &[(String, Attr)], name: &str) -> Result<i64> {
    field(f, name)
        .and_then(Attr::as_int)
        .and_then(|i| i64::try_from(i).ok())
        .ok_or_else(|| Error::invalid(format!("Shardy attribute: no integer {name}")))
}

impl Mesh {
    /// Reads an `sdy.mesh` attribute.
    pub fn from_attr(a: &Attr) -> Result<Mesh> {
        let f = struct_fields(a, "sdy.mesh")?;
        let axes = list(f, "axes")?
            .iter()
            .map(|ax| {
                let g = struct_fields(ax, "sdy.mesh_axis")?;
                let name = field(g, "name")
                    .and_then(Attr::as_str)
                    .ok_or_else(|| bad("a mesh axis name", ax))?;
                let size = int(g, "size")?;
                if size < 1 {
                    return Err(Error::invalid(format!(
                        "Shardy mesh axis \"{name}\" of size {size}"
                    )));
                }
                Ok((name.to_string(), size))
            })
            .collect::<Result<Vec<_>>>()?;
        let device_ids = match field(f, "device_ids") {
            None => Vec::new(),
            Some(d) => d.as_ints().ok_or_else(|| bad("device ids", d))?,
        };
        Ok(Mesh { axes, device_ids })
    }

    /// The number of devices (1 for a mesh without axes).
    pub fn size(&self) -> i64 {
        self.axes.iter().map(|(_, s)| *s).product()
    }

    fn axis(&self, name: &str) -> Result<(usize, i64)> {
        self.axes
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| (i, self.axes[i].1))
            .ok_or_else(|| Error::invalid(format!("Shardy sharding: no mesh axis \"{name}\"")))
    }
}

impl AxisRef {
    /// Reads an `sdy.axis_ref` attribute.
    pub fn from_attr(a: &Attr) -> Result<AxisRef> {
        let f = struct_fields(a, "sdy.axis_ref")?;
        let name = field(f, "name")
            .and_then(Attr::as_str)
            .ok_or_else(|| bad("an axis name", a))?
            .to_string();
        let sub = match field(f, "sub_axis_info") {
            None => None,
            Some(s) => {
                let g = struct_fields(s, "sdy.sub_axis_info")?;
                Some((int(g, "pre_size")?, int(g, "size")?))
            }
        };
        Ok(AxisRef { name, sub })
    }

    fn list(v: &[Attr]) -> Result<Vec<AxisRef>> {
        v.iter().map(AxisRef::from_attr).collect()
    }
}

impl TensorSharding {
    /// Reads an `sdy.sharding` attribute.
    pub fn from_attr(a: &Attr) -> Result<TensorSharding> {
        let f = struct_fields(a, "sdy.sharding")?;
        let mesh = match field(f, "mesh") {
            Some(Attr::Symbol(s)) => MeshRef::Named(s.clone()),
            Some(m @ Attr::Struct(..)) => MeshRef::Inline(Mesh::from_attr(m)?),
            other => {
                return Err(Error::invalid(format!(
                    "Shardy sharding: expected a mesh or a mesh name, found {other:?}"
                )))
            }
        };
        let dims = list(f, "dim_shardings")?
            .iter()
            .map(|d| AxisRef::list(list(struct_fields(d, "sdy.dimension_sharding")?, "axes")?))
            .collect::<Result<Vec<_>>>()?;
        Ok(TensorSharding {
            mesh,
            dims,
            replicated: AxisRef::list(list(f, "replicated_axes")?)?,
            unreduced: AxisRef::list(list(f, "unreduced_axes")?)?,
        })
    }

    /// Reads each sharding of an `sdy.sharding_per_value` attribute.
    pub fn per_value(a: &Attr) -> Result<Vec<TensorSharding>> {
        let f = struct_fields(a, "sdy.sharding_per_value")?;
        list(f, "shardings")?
            .iter()
            .map(TensorSharding::from_attr)
            .collect()
    }

    /// The mesh this sharding is on, looked up in `module`'s meshes when named.
    pub fn resolve_mesh(&self, module: &Module) -> Result<Mesh> {
        match &self.mesh {
            MeshRef::Inline(m) => Ok(m.clone()),
            MeshRef::Named(n) => {
                let a = module
                    .meshes
                    .iter()
                    .find(|(k, _)| k == n)
                    .map(|(_, v)| v)
                    .ok_or_else(|| {
                        Error::invalid(format!("Shardy sharding on unknown mesh @{n}"))
                    })?;
                Mesh::from_attr(a)
            }
        }
    }

    /// Whether every dimension is whole on every device (no axis of size > 1 splits one, and
    /// nothing is left unreduced).
    pub fn is_replicated(&self, mesh: &Mesh) -> Result<bool> {
        for a in self.dims.iter().flatten().chain(&self.unreduced) {
            if split_size(mesh, a)? > 1 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The HLO sharding of this sharding on `mesh` (`{replicated}`, `{maximal device=3}`,
    /// `{devices=[2,1,4]<=[8] last_tile_dim_replicate}`...); unreduced axes form a subgroup
    /// dimension of their own (`last_tile_dims={unreduced, replicated}`).
    pub fn to_hlo(&self, mesh: &Mesh) -> Result<String> {
        if mesh.axes.is_empty() {
            // A mesh of one device: `@maximal_mesh_3 = <[], device_ids=[3]>`, or the empty
            // mesh (no devices named: replicated).
            return Ok(match mesh.device_ids[..] {
                [d] => format!("{{maximal device={d}}}"),
                _ => "{replicated}".to_string(),
            });
        }
        // Each mesh axis splits into the pieces that sub-axes name: per axis, its cut
        // points (pre-sizes, pre-size × size), major to minor.
        let mut cuts: Vec<Vec<i64>> = mesh.axes.iter().map(|(_, s)| vec![1, *s]).collect();
        for a in self
            .dims
            .iter()
            .flatten()
            .chain(&self.replicated)
            .chain(&self.unreduced)
        {
            let (i, size) = mesh.axis(&a.name)?;
            if let Some((pre, sz)) = a.sub {
                if pre < 1 || sz < 1 || size % (pre * sz) != 0 {
                    return Err(Error::invalid(format!(
                        "Shardy sub-axis \"{}\":({pre}){sz} of an axis of size {size}",
                        a.name
                    )));
                }
                cuts[i].push(pre);
                cuts[i].push(pre * sz);
            }
        }
        // Pieces of axis i: between consecutive cut points c0 < c1, of size c1 / c0 and
        // pre-size c0 (the product of the sizes of the pieces major to it).
        let mut pieces: Vec<(usize, i64, i64)> = Vec::new(); // (axis, pre-size, size)
        for (i, c) in cuts.iter_mut().enumerate() {
            c.sort_unstable();
            c.dedup();
            for w in c.windows(2) {
                if w[1] % w[0] != 0 {
                    return Err(Error::invalid(format!(
                        "Shardy sub-axes of \"{}\" that do not nest",
                        mesh.axes[i].0
                    )));
                }
                pieces.push((i, w[0], w[1] / w[0]));
            }
        }
        // The pieces an axis reference covers.
        let covered = |a: &AxisRef| -> Result<Vec<usize>> {
            let (i, size) = mesh.axis(&a.name)?;
            let (lo, hi) = a.sub.map_or((1, size), |(p, s)| (p, p * s));
            Ok((0..pieces.len())
                .filter(|&k| {
                    pieces[k].0 == i && pieces[k].1 >= lo && pieces[k].1 * pieces[k].2 <= hi
                })
                .collect())
        };
        // The device array reshaped into pieces, in mesh order: axes major to minor, and
        // within an axis the piece with the smallest pre-size (the sub-axis "x":(1)k) first.
        let mut order: Vec<usize> = (0..pieces.len()).collect();
        order.sort_by_key(|&k| (pieces[k].0, pieces[k].1));
        let mut perm: Vec<usize> = Vec::new();
        let mut tiles: Vec<i64> = Vec::new();
        for d in &self.dims {
            let mut t = 1;
            for a in d {
                for k in covered(a)? {
                    if perm.contains(&k) {
                        return Err(Error::invalid(format!(
                            "Shardy sharding uses axis \"{}\" twice",
                            a.name
                        )));
                    }
                    perm.push(k);
                    t *= pieces[k].2;
                }
            }
            tiles.push(t);
        }
        // Unreduced axes (each device holds a partial sum) follow the tiles as their own
        // subgroup dimension.
        let mut unreduced = 1;
        for a in &self.unreduced {
            for k in covered(a)? {
                if perm.contains(&k) {
                    return Err(Error::invalid(format!(
                        "Shardy sharding uses axis \"{}\" twice",
                        a.name
                    )));
                }
                perm.push(k);
                unreduced *= pieces[k].2;
            }
        }
        if tiles.iter().all(|&t| t == 1) && unreduced == 1 {
            return Ok("{replicated}".to_string());
        }
        let rest: Vec<usize> = order
            .iter()
            .copied()
            .filter(|k| !perm.contains(k))
            .collect();
        let replicate: i64 = rest.iter().map(|&k| pieces[k].2).product();
        perm.extend(&rest);
        // `perm` lists pieces in tile order; as a transpose of the device array whose
        // dimensions are `order`.
        let shape: Vec<i64> = order.iter().map(|&k| pieces[k].2).collect();
        let transpose: Vec<usize> = perm
            .iter()
            .map(|k| order.iter().position(|o| o == k).unwrap_or(0))
            .collect();
        let mut dims = tiles;
        if unreduced > 1 {
            dims.push(unreduced);
        }
        if replicate > 1 {
            dims.push(replicate);
        }
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let suffix = match (unreduced > 1, replicate > 1) {
            (false, false) => "",
            (false, true) => " last_tile_dim_replicate",
            (true, false) => " last_tile_dims={unreduced}",
            (true, true) => " last_tile_dims={unreduced, replicated}",
        };
        if mesh.device_ids.is_empty() {
            // The devices in tile order are iota(N) reshaped to `shape`, transposed.
            let identity = transpose.iter().enumerate().all(|(i, &t)| i == t);
            let t = if identity {
                String::new()
            } else {
                format!(
                    "T({})",
                    transpose
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                )
            };
            let n: i64 = shape.iter().product();
            let reshape = if identity { vec![n] } else { shape };
            return Ok(format!(
                "{{devices=[{}]<=[{}]{t}{suffix}}}",
                list(&dims),
                list(&reshape)
            ));
        }
        // An explicit device order: list the devices in tile order.
        if mesh.device_ids.len() as i64 != mesh.size() {
            return Err(Error::invalid(format!(
                "Shardy mesh of {} devices with {} device ids",
                mesh.size(),
                mesh.device_ids.len()
            )));
        }
        let devices = transposed(&mesh.device_ids, &shape, &transpose);
        Ok(format!(
            "{{devices=[{}]{}{suffix}}}",
            list(&dims),
            list(&devices)
        ))
    }
}

/// How many pieces axis reference `a` splits a dimension into.
fn split_size(mesh: &Mesh, a: &AxisRef) -> Result<i64> {
    let (_, size) = mesh.axis(&a.name)?;
    Ok(a.sub.map_or(size, |(_, s)| s))
}

/// `v` (row-major of `shape`) transposed by `perm` (result dimension i is input `perm[i]`).
fn transposed(v: &[i64], shape: &[i64], perm: &[usize]) -> Vec<i64> {
    let out_shape: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
    let mut strides = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    let n = v.len();
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0i64; out_shape.len()];
    for _ in 0..n {
        let src: i64 = idx.iter().zip(perm).map(|(&x, &p)| x * strides[p]).sum();
        out.push(v[src as usize]);
        for d in (0..idx.len()).rev() {
            idx[d] += 1;
            if idx[d] < out_shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

/// The HLO sharding of `a` (an `sdy.sharding`) in `module`, or `None` when `a` is not one.
pub fn hlo_sharding(module: &Module, a: &Attr) -> Result<Option<String>> {
    if !matches!(a, Attr::Struct(n, _) if n == "sdy.sharding") {
        return Ok(None);
    }
    let s = TensorSharding::from_attr(a)?;
    let mesh = s.resolve_mesh(module)?;
    s.to_hlo(&mesh).map(Some)
}

/// Whether `a` (an `sdy.sharding`) leaves every dimension whole on every device.
pub fn is_replicated(module: &Module, a: &Attr) -> Result<bool> {
    let s = TensorSharding::from_attr(a)?;
    let mesh = s.resolve_mesh(module)?;
    s.is_replicated(&mesh)
}

/// The HLO sharding an entry argument's or result's attributes give it (`mhlo.sharding`,
/// or Shardy's `sdy.sharding` in HLO form), when they give one.
pub fn entry_sharding(module: &Module, attrs: &[(String, Attr)]) -> Result<Option<String>> {
    for (k, a) in attrs {
        match (k.as_str(), a) {
            ("mhlo.sharding", Attr::Str(s)) => return Ok(Some(s.clone())),
            ("sdy.sharding", a) if is_replicated(module, a)? => {
                return Ok(Some("{replicated}".to_string()))
            }
            ("sdy.sharding", a) => return hlo_sharding(module, a),
            _ => {}
        }
    }
    Ok(None)
}

/// The device of an op's maximal sharding (`mhlo.sharding = "{maximal device=d}"`, or
/// `sdy.sharding` per value, each on a mesh of that one device), when it has one.
pub fn maximal_device(module: &Module, op: &crate::ast::Operation) -> Result<Option<usize>> {
    let mut hlo = Vec::new();
    if let Some(Attr::Str(s)) = op.attr("mhlo.sharding") {
        hlo.push(s.clone());
    } else if let Some(a) = op.attr("sdy.sharding") {
        // Anything but a per-value list of shardings: not a maximal one.
        let Ok(all) = TensorSharding::per_value(a) else {
            return Ok(None);
        };
        for s in all {
            let mesh = s.resolve_mesh(module)?;
            hlo.push(s.to_hlo(&mesh)?);
        }
    }
    let mut device = None;
    for s in &hlo {
        match oxla_hlo::HloSharding::parse(s).unwrap_or(oxla_hlo::HloSharding::Replicated) {
            oxla_hlo::HloSharding::Maximal(d) if device.is_none_or(|x| x == d) => device = Some(d),
            _ => return Ok(None),
        }
    }
    Ok(device)
}
