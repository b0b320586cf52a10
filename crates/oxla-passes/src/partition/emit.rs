//! Building the per-partition entry computation: new instructions, and resharding a value
//! from one sharding to another with collectives (all-gather to make a split dimension
//! whole, a slice at this partition's offsets to split one).

use std::collections::HashMap;

use oxla_hlo::{
    BinaryOp, ComputationId, Error, GridSize, HloComputation, HloInstruction, HloSharding, InstrId,
    Literal, NativeType, Op, PaddingConfig, PaddingDimension, PrimitiveType, Result, Shape, Tiling,
};

use super::rules::{same_placement, tiling_of};

/// A value of the per-partition program: the instruction holding this partition's piece,
/// the global array's shape and how it is split.
#[derive(Clone, Debug)]
pub(super) struct Local {
    pub id: InstrId,
    pub global: Shape,
    pub sharding: HloSharding,
}

/// The per-partition computation under construction.
pub(super) struct Emit {
    pub instrs: Vec<HloInstruction>,
    pub grid: GridSize,
    /// The module's computations count before this pass (new reducers go after).
    pub base: usize,
    pub new_comps: Vec<HloComputation>,
    next_channel: i64,
    adders: HashMap<PrimitiveType, ComputationId>,
    offsets: HashMap<(String, usize, i64), InstrId>,
    partition: Option<InstrId>,
    resharded: HashMap<(InstrId, String), Local>,
    /// How many users each value's original instruction has (partial sums used twice are
    /// summed once rather than carried into both).
    pub uses: HashMap<InstrId, usize>,
    /// Instructions run whole for want of a rule (`SpmdSignature::whole`).
    pub whole: Vec<String>,
    /// Collectives emitted: (kind, bytes per partition), for reports and tests.
    pub collectives: Vec<(&'static str, i64)>,
    /// The module's computations before this pass (loop bodies to remake at the pieces'
    /// shapes, see [`Emit::remake`]).
    pub callees: Vec<HloComputation>,
    /// Loops remade at a piece's shape: (loop, piece dimensions) -> the new loop.
    remade_loops: HashMap<(InstrId, Vec<i64>), Option<InstrId>>,
}

fn array_dims(s: &Shape) -> Vec<i64> {
    s.dims().to_vec()
}

impl Emit {
    pub fn new(grid: GridSize, base: usize, first_channel: i64) -> Emit {
        Emit {
            instrs: Vec::new(),
            grid,
            base,
            new_comps: Vec::new(),
            next_channel: first_channel,
            adders: HashMap::new(),
            offsets: HashMap::new(),
            partition: None,
            resharded: HashMap::new(),
            uses: HashMap::new(),
            whole: Vec::new(),
            collectives: Vec::new(),
            callees: Vec::new(),
            remade_loops: HashMap::new(),
        }
    }

    pub fn push(&mut self, mut ins: HloInstruction) -> InstrId {
        ins.name = format!("{}.p{}", ins.name, self.instrs.len());
        self.instrs.push(ins);
        InstrId(self.instrs.len() as u32 - 1)
    }

    fn make(&mut self, name: &str, op: Op, operands: Vec<InstrId>, shape: Shape) -> InstrId {
        self.push(HloInstruction::new(name, op, operands, shape))
    }

    pub fn shape(&self, id: InstrId) -> &Shape {
        &self.instrs[id.index()].shape
    }

    fn channel(&mut self) -> i64 {
        self.next_channel += 1;
        self.next_channel
    }

    /// Partition groups as the flattened (replica-major) ids every replica's copy uses.
    fn global_groups(&self, groups: &[Vec<usize>]) -> Vec<Vec<i64>> {
        let n = self.grid.partitions;
        (0..self.grid.replicas)
            .flat_map(|r| {
                groups
                    .iter()
                    .map(move |g| g.iter().map(|&p| r * n + p as i64).collect())
            })
            .collect()
    }

    /// A scalar computation `a + b` of element type `ty`, made once.
    pub fn adder(&mut self, ty: PrimitiveType) -> ComputationId {
        if let Some(&c) = self.adders.get(&ty) {
            return c;
        }
        let s = Shape::scalar(ty);
        let name = format!("spmd_add_{}", ty.name());
        let a = HloInstruction::new(
            format!("{name}.a"),
            Op::Parameter { number: 0 },
            vec![],
            s.clone(),
        );
        let b = HloInstruction::new(
            format!("{name}.b"),
            Op::Parameter { number: 1 },
            vec![],
            s.clone(),
        );
        let op = match ty {
            PrimitiveType::Pred => BinaryOp::Or,
            _ => BinaryOp::Add,
        };
        let sum = HloInstruction::new(
            format!("{name}.sum"),
            Op::Binary(op),
            vec![InstrId(0), InstrId(1)],
            s,
        );
        let id = ComputationId((self.base + self.new_comps.len()) as u32);
        self.new_comps.push(HloComputation {
            name,
            instructions: vec![a, b, sum],
            parameters: vec![InstrId(0), InstrId(1)],
            root: InstrId(2),
        });
        self.adders.insert(ty, id);
        id
    }

    /// All-reduce of `x` over `groups` (partition ids) with `reducer`.
    pub fn all_reduce(
        &mut self,
        x: InstrId,
        groups: &[Vec<usize>],
        reducer: ComputationId,
    ) -> InstrId {
        let shape = self.shape(x).clone();
        let channel = self.channel();
        self.collectives.push(("all-reduce", bytes(&shape)));
        let mut ins = HloInstruction::new(
            "all-reduce",
            Op::AllReduce {
                replica_groups: self.global_groups(groups),
                channel_id: Some(channel),
                use_global_device_ids: true,
            },
            vec![x],
            shape,
        );
        ins.called = vec![reducer];
        self.push(ins)
    }

    fn all_gather(&mut self, x: InstrId, dim: usize, groups: &[Vec<usize>]) -> InstrId {
        let mut dims = array_dims(self.shape(x));
        dims[dim] *= groups[0].len() as i64;
        let shape = Shape::array(self.shape(x).element_type(), &dims);
        let channel = self.channel();
        self.collectives.push(("all-gather", bytes(&shape)));
        let op = Op::AllGather {
            dimension: dim as i64,
            replica_groups: self.global_groups(groups),
            channel_id: Some(channel),
            use_global_device_ids: true,
        };
        self.make("all-gather", op, vec![x], shape)
    }

    fn slice_to(&mut self, x: InstrId, dims: &[i64]) -> InstrId {
        let have = array_dims(self.shape(x));
        if have == dims {
            return x;
        }
        let op = Op::Slice {
            start: vec![0; dims.len()],
            limit: dims.to_vec(),
            strides: vec![1; dims.len()],
        };
        let shape = Shape::array(self.shape(x).element_type(), dims);
        self.make("slice", op, vec![x], shape)
    }

    fn pad_to(&mut self, x: InstrId, dims: &[i64]) -> Result<InstrId> {
        let have = array_dims(self.shape(x));
        if have == dims {
            return Ok(x);
        }
        let ty = self.shape(x).element_type();
        let zero = Literal::zeros(&Shape::scalar(ty))?;
        let z = self.make("zero", Op::Constant(zero), vec![], Shape::scalar(ty));
        let config = PaddingConfig {
            dimensions: have
                .iter()
                .zip(dims)
                .map(|(&h, &d)| PaddingDimension {
                    edge_padding_low: 0,
                    edge_padding_high: d - h,
                    interior_padding: 0,
                })
                .collect(),
        };
        Ok(self.make("pad", Op::Pad(config), vec![x, z], Shape::array(ty, dims)))
    }

    /// This partition's id as an s32 scalar.
    fn partition_s32(&mut self) -> InstrId {
        if let Some(p) = self.partition {
            return p;
        }
        let u = self.make(
            "partition-id",
            Op::PartitionId,
            vec![],
            Shape::scalar(PrimitiveType::U32),
        );
        let s = self.make(
            "pid",
            Op::Convert,
            vec![u],
            Shape::scalar(PrimitiveType::S32),
        );
        self.partition = Some(s);
        s
    }

    /// The start of this partition's tile along `dim` (tiles of `size`), as an s32 scalar:
    /// a table indexed by the partition id.
    fn offset(&mut self, t: &Tiling, dim: usize, size: i64) -> Result<InstrId> {
        let key = (format!("{:?}", t), dim, size);
        if let Some(&o) = self.offsets.get(&key) {
            return Ok(o);
        }
        let o = self.per_partition("offset", t, |c| (c[dim] as i64 * size) as i32)?;
        self.offsets.insert(key, o);
        Ok(o)
    }

    /// A scalar that differs by partition: `value(coordinates in t)` for this partition,
    /// picked from a constant table by the partition id.
    fn per_partition<T: NativeType>(
        &mut self,
        name: &str,
        t: &Tiling,
        value: impl Fn(&[usize]) -> T,
    ) -> Result<InstrId> {
        let n = self.grid.partitions as usize;
        let table = (0..n)
            .map(|p| {
                t.coords(p).map(|c| value(&c)).ok_or_else(|| {
                    Error::invalid(format!("partition {p} is not in tile assignment {t:?}"))
                })
            })
            .collect::<Result<Vec<T>>>()?;
        self.table(name, table)
    }

    /// This partition's entry of `table` (one per partition), picked by the partition id.
    fn table<T: NativeType>(&mut self, name: &str, table: Vec<T>) -> Result<InstrId> {
        let n = table.len();
        let ty = T::TYPE;
        let c = self.make(
            name,
            Op::Constant(Literal::vec1(&table)),
            vec![],
            Shape::array(ty, &[n as i64]),
        );
        let p = self.partition_s32();
        let one = self.make(
            name,
            Op::DynamicSlice {
                slice_sizes: vec![1],
            },
            vec![c, p],
            Shape::array(ty, &[1]),
        );
        Ok(self.make(name, Op::Reshape, vec![one], Shape::scalar(ty)))
    }

    /// `x` on the partitions whose coordinate along `dim` of `t` is 0, zeros elsewhere.
    fn first_of_group(&mut self, x: InstrId, t: &Tiling, dim: usize) -> Result<InstrId> {
        let flag = self.per_partition("first", t, |c| c[dim] == 0)?;
        let pred = PrimitiveType::Pred;
        let shape = self.shape(x).clone();
        let dims = shape.dims().to_vec();
        let flags = self.make(
            "first",
            Op::Broadcast { dimensions: vec![] },
            vec![flag],
            Shape::array(pred, &dims),
        );
        let ty = shape.element_type();
        let zero = Literal::zeros(&Shape::scalar(ty))?;
        let z = self.make("zero", Op::Constant(zero), vec![], Shape::scalar(ty));
        let zeros = self.make(
            "zeros",
            Op::Broadcast { dimensions: vec![] },
            vec![z],
            shape.clone(),
        );
        Ok(self.make("share", Op::Select, vec![flags, x, zeros], shape))
    }

    /// The whole array on every partition.
    pub fn gather_all(&mut self, v: &Local) -> Result<InstrId> {
        let dims = array_dims(&v.global);
        let Some(t) = tiling_of(&v.sharding, dims.len()).cloned() else {
            return Ok(v.id);
        };
        let mut x = v.id;
        for d in 0..dims.len() {
            if t.dims[d] > 1 {
                x = self.all_gather(x, d, &t.groups_along(&[d]));
            }
        }
        Ok(self.slice_to(x, &dims))
    }

    /// Each partition's piece of an array of `dims` under `s`: per dimension, `[lo, hi)`.
    /// `None` for a sharding that is not a plain even split (or copies) of the array.
    fn regions(&self, s: &HloSharding, dims: &[i64]) -> Option<Vec<Region>> {
        let n = self.grid.partitions as usize;
        let whole = || dims.iter().map(|&d| (0, d)).collect::<Vec<_>>();
        match s {
            HloSharding::Replicated => Some(vec![whole(); n]),
            HloSharding::Tiled(_) if s.is_even(dims) && s.unreduced_dim().is_none() => {
                let t = tiling_of(s, dims.len())?;
                let shard = s.shard_dims(dims);
                // Every partition's coordinates in one pass over the device list.
                let mut coords = vec![None; n];
                let mut c = vec![0usize; t.dims.len()];
                for &device in &t.devices {
                    if let Some(slot) = coords.get_mut(device) {
                        *slot = Some(c.clone());
                    }
                    for k in (0..c.len()).rev() {
                        c[k] += 1;
                        if c[k] < t.dims[k] {
                            break;
                        }
                        c[k] = 0;
                    }
                }
                (0..n)
                    .map(|p| {
                        let c = coords[p].clone()?;
                        Some(
                            (0..dims.len())
                                .map(|d| (c[d] as i64 * shard[d], (c[d] as i64 + 1) * shard[d]))
                                .collect(),
                        )
                    })
                    .collect()
            }
            _ => None,
        }
    }

    /// `v` under `to` by moving only what each partition lacks, where the pieces allow
    /// (GSPMD's resharding cases): along each dimension where `to`'s pieces are larger, an
    /// all-gather within the groups of partitions whose pieces make up the larger one (a
    /// value split 8 ways to one split 4 ways: pairs; split along heads and their width to
    /// heads alone: pairs too), then where `to`'s pieces are smaller, a slice of what each
    /// partition holds at its own offset (split 4 ways to 8: no collective). `None` where
    /// the pieces do not nest that way: then the whole value is gathered and cut.
    fn reshard_by_regions(&mut self, v: &Local, to: &HloSharding) -> Result<Option<InstrId>> {
        let dims = array_dims(&v.global);
        // A whole value is cut by `split`, which also rebuilds a broadcast at the piece's
        // shape.
        if v.sharding.is_replicated() {
            return Ok(None);
        }
        let (Some(mut cur), Some(want)) =
            (self.regions(&v.sharding, &dims), self.regions(to, &dims))
        else {
            return Ok(None);
        };
        let n = cur.len();
        let mut x = v.id;
        let mut steps = Vec::new();
        for d in 0..dims.len() {
            if (0..n).all(|p| cur[p][d] == want[p][d]) {
                continue;
            }
            // Only growing along d here; shrinking is the local slice after.
            let grows = |p: usize| {
                let ((a, b), (c, e)) = (cur[p][d], want[p][d]);
                c <= a && b <= e && (c, e) != (a, b)
            };
            if !(0..n).all(|p| {
                grows(p) || cur[p][d] == want[p][d] || {
                    let ((a, b), (c, e)) = (cur[p][d], want[p][d]);
                    a <= c && e <= b
                }
            }) {
                return Ok(None);
            }
            if !(0..n).any(grows) {
                continue;
            }
            if !(0..n).all(grows) {
                return Ok(None);
            }
            // Partitions holding the same of everything else and the same target along d.
            let mut groups: Vec<(Region, Vec<usize>)> = Vec::new();
            for p in 0..n {
                let mut key = cur[p].clone();
                key[d] = want[p][d];
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, g)) => g.push(p),
                    None => groups.push((key, vec![p])),
                }
            }
            let mut ordered = Vec::new();
            for (key, mut g) in groups {
                g.sort_by_key(|&p| (cur[p][d].0, p));
                // Copies of a piece (a replicated subgroup) go to separate groups: the j-th
                // holder of each piece to the j-th group.
                let copies = g.iter().filter(|&&p| cur[p][d] == cur[g[0]][d]).count();
                for j in 0..copies {
                    let sub: Vec<usize> = g.iter().copied().skip(j).step_by(copies).collect();
                    // The members' pieces along d, in order, must tile the target once.
                    let mut at = key[d].0;
                    for &p in &sub {
                        if cur[p][d].0 != at {
                            return Ok(None);
                        }
                        at = cur[p][d].1;
                    }
                    if at != key[d].1 {
                        return Ok(None);
                    }
                    ordered.push(sub);
                }
            }
            if ordered.iter().any(|g| g.len() != ordered[0].len()) {
                return Ok(None);
            }
            steps.push((d, ordered));
            for p in 0..n {
                cur[p][d] = want[p][d];
            }
        }
        for (d, groups) in steps {
            x = self.all_gather(x, d, &groups);
        }
        // What is left: each partition's target inside what it holds.
        if (0..n).any(|p| cur[p] != want[p]) {
            let shard: Vec<i64> = want[0].iter().map(|&(a, b)| b - a).collect();
            let mut starts = Vec::new();
            for d in 0..dims.len() {
                let table: Vec<i32> = (0..n)
                    .map(|p| (want[p][d].0 - cur[p][d].0) as i32)
                    .collect();
                starts.push(if table.iter().all(|&o| o == table[0]) {
                    self.make(
                        if table[0] == 0 { "zero" } else { "offset" },
                        Op::Constant(Literal::scalar(table[0])),
                        vec![],
                        Shape::scalar(PrimitiveType::S32),
                    )
                } else {
                    self.table("offset", table)?
                });
            }
            let mut operands = vec![x];
            operands.extend(starts);
            x = self.make(
                "dynamic-slice",
                Op::DynamicSlice {
                    slice_sizes: shard.clone(),
                },
                operands,
                Shape::array(v.global.element_type(), &shard),
            );
        }
        Ok(Some(x))
    }

    /// This partition's piece, under `to`, of a value every partition holds whole.
    pub fn split(&mut self, whole: InstrId, global: &Shape, to: &HloSharding) -> Result<InstrId> {
        let dims = array_dims(global);
        let Some(t) = tiling_of(to, dims.len()).cloned() else {
            return Ok(whole);
        };
        let shard = to.shard_dims(&dims);
        // A broadcast split only along dimensions it adds (or expands from size 1) is the
        // same broadcast to the piece's shape: no whole array made to be sliced (a bias
        // broadcast over a batch-split activation, a scalar).
        let src = &self.instrs[whole.index()];
        if let Op::Broadcast { dimensions } = &src.op {
            let from = array_dims(self.shape(src.operands[0]));
            let added = (0..dims.len()).filter(|&d| t.dims[d] > 1).all(|d| {
                match dimensions.iter().position(|&r| r as usize == d) {
                    None => true,
                    Some(k) => from.get(k) == Some(&1),
                }
            });
            if added {
                let ins = HloInstruction::new(
                    "broadcast",
                    Op::Broadcast {
                        dimensions: dimensions.clone(),
                    },
                    vec![src.operands[0]],
                    Shape::array(global.element_type(), &shard),
                );
                return Ok(self.push(ins));
            }
        }
        // A value made from iotas and constants by element-wise steps (random bits from
        // counters, masks, positions) is made again at the piece's shape, each partition
        // its own counters: no whole array made to be sliced (XLA's propagation reaches the
        // iota the same way).
        let even = shard
            .iter()
            .zip(&t.dims)
            .zip(&dims)
            .all(|((&s, &n), &d)| s * n as i64 == d);
        if even {
            let mut memo = HashMap::new();
            if let Some(piece) = self.remake(whole, &t, &shard, &mut memo, 0)? {
                return Ok(piece);
            }
        }
        let padded: Vec<i64> = shard
            .iter()
            .zip(&t.dims)
            .map(|(&s, &n)| s * n as i64)
            .collect();
        let x = self.pad_to(whole, &padded)?;
        let mut starts = Vec::new();
        for (d, &size) in shard.iter().enumerate() {
            starts.push(if t.dims[d] > 1 {
                self.offset(&t, d, size)?
            } else {
                let zero = Literal::scalar(0i32);
                self.make(
                    "zero",
                    Op::Constant(zero),
                    vec![],
                    Shape::scalar(PrimitiveType::S32),
                )
            });
        }
        let mut operands = vec![x];
        operands.extend(starts);
        let op = Op::DynamicSlice {
            slice_sizes: shard.clone(),
        };
        Ok(self.make(
            "dynamic-slice",
            op,
            operands,
            Shape::array(global.element_type(), &shard),
        ))
    }

    /// This partition's piece (`shard` elements per dimension, split evenly as `t` says) of
    /// the whole value `x`, made again from the iotas and constants it comes from by
    /// element-wise steps; `None` where `x` is not made that way (a parameter's value, a
    /// non-scalar constant, any other op), or is too deep to follow.
    fn remake(
        &mut self,
        x: InstrId,
        t: &Tiling,
        shard: &[i64],
        memo: &mut HashMap<InstrId, Option<InstrId>>,
        depth: usize,
    ) -> Result<Option<InstrId>> {
        const MAX_DEPTH: usize = 256;
        if let Some(&done) = memo.get(&x) {
            return Ok(done);
        }
        if depth > MAX_DEPTH {
            return Ok(None);
        }
        let src = self.instrs[x.index()].clone();
        let Some(a) = src.shape.as_array() else {
            return Ok(None);
        };
        let ty = a.element_type;
        let local = Shape::array(ty, shard);
        let piece = match &src.op {
            // Floats only where converting the count rounds once as the whole iota does.
            Op::Iota { dimension }
                if ty.is_integer() || matches!(ty, PrimitiveType::F32 | PrimitiveType::F64) =>
            {
                let d = *dimension as usize;
                if d >= shard.len() {
                    return Ok(None);
                }
                if t.dims[d] == 1 {
                    Some(self.make("iota", src.op.clone(), vec![], local))
                } else {
                    // Counted in s64 (exact for any piece), then converted as the whole
                    // iota's elements are.
                    let wide = Shape::array(PrimitiveType::S64, shard);
                    let iota = self.make("iota", src.op.clone(), vec![], wide.clone());
                    let off = self.offset(t, d, shard[d])?;
                    let off = self.make(
                        "convert",
                        Op::Convert,
                        vec![off],
                        Shape::scalar(PrimitiveType::S64),
                    );
                    let off = self.make(
                        "broadcast",
                        Op::Broadcast { dimensions: vec![] },
                        vec![off],
                        wide.clone(),
                    );
                    let sum = self.make("add", Op::Binary(BinaryOp::Add), vec![iota, off], wide);
                    Some(if ty == PrimitiveType::S64 {
                        sum
                    } else {
                        self.make("convert", Op::Convert, vec![sum], local)
                    })
                }
            }
            // A broadcast of a scalar (or of anything along dimensions it adds).
            Op::Broadcast { dimensions } => {
                let from = array_dims(self.shape(src.operands[0]));
                let added = (0..shard.len()).filter(|&d| t.dims[d] > 1).all(|d| {
                    match dimensions.iter().position(|&r| r as usize == d) {
                        None => true,
                        Some(k) => from.get(k) == Some(&1),
                    }
                });
                added.then(|| self.make("broadcast", src.op.clone(), src.operands.clone(), local))
            }
            op if op.is_elementwise_compute() => {
                // Element-wise on operands of the same dimensions (a clamp's scalar bounds
                // stay as they are).
                let mut ops = Vec::with_capacity(src.operands.len());
                let mut remade = false;
                for &o in &src.operands {
                    if self.shape(o).dims().is_empty() && !src.shape.dims().is_empty() {
                        ops.push(o);
                        continue;
                    }
                    match self.remake(o, t, shard, memo, depth + 1)? {
                        Some(p) => {
                            ops.push(p);
                            remade = true;
                        }
                        None => {
                            memo.insert(x, None);
                            return Ok(None);
                        }
                    }
                }
                remade.then(|| self.make(&src.name, src.op.clone(), ops, local))
            }
            // An element of a loop's state (JAX's threefry runs its rounds in a loop).
            Op::GetTupleElement { index } => {
                let w = src.operands[0];
                // An element of a tuple made here (an inlined call's results).
                if matches!(self.instrs[w.index()].op, Op::Tuple) {
                    let e = self.instrs[w.index()].operands.get(*index).copied();
                    let piece = match e {
                        Some(e) => self.remake(e, t, shard, memo, depth + 1)?,
                        None => None,
                    };
                    memo.insert(x, piece);
                    return Ok(piece);
                }
                if !matches!(self.instrs[w.index()].op, Op::While) {
                    return Ok(None);
                }
                match self.remake_loop(w, src.shape.dims(), t, shard, memo, depth)? {
                    Some(nw) => Some(self.make(
                        &src.name,
                        Op::GetTupleElement { index: *index },
                        vec![nw],
                        local,
                    )),
                    None => None,
                }
            }
            Op::BitcastConvert if self.shape(src.operands[0]).dims() == src.shape.dims() => {
                let o = src.operands[0];
                match self.remake(o, t, shard, memo, depth + 1)? {
                    Some(p) => Some(self.make(&src.name, src.op.clone(), vec![p], local)),
                    None => None,
                }
            }
            _ => None,
        };
        memo.insert(x, piece);
        Ok(piece)
    }

    /// The loop `w` run on pieces: every array of its state with the dimensions `global`
    /// remade at `shard` (the others kept), its condition and body copied with those arrays'
    /// shapes changed. `None` unless the initial state is a tuple whose such arrays can be
    /// remade and the copied computations only compute element-wise on them (no iota,
    /// constant, slice or call of that shape inside), so that the loop computes each
    /// element from the same elements whatever the shape.
    fn remake_loop(
        &mut self,
        w: InstrId,
        global: &[i64],
        t: &Tiling,
        shard: &[i64],
        memo: &mut HashMap<InstrId, Option<InstrId>>,
        depth: usize,
    ) -> Result<Option<InstrId>> {
        let key = (w, shard.to_vec());
        if let Some(&done) = self.remade_loops.get(&key) {
            return Ok(done);
        }
        self.remade_loops.insert(key.clone(), None);
        let src = self.instrs[w.index()].clone();
        let init = self.instrs[src.operands[0].index()].clone();
        let (&[cond, body], Op::Tuple) = (&src.called[..], &init.op) else {
            return Ok(None);
        };
        let local_of = |sh: &Shape| -> Shape {
            let one = |e: &Shape| match e.as_array() {
                Some(a) if a.dims == global => Shape::array(a.element_type, shard),
                _ => e.clone(),
            };
            match sh {
                Shape::Tuple(ts) => Shape::Tuple(ts.iter().map(one).collect()),
                _ => one(sh),
            }
        };
        let mut elems = Vec::with_capacity(init.operands.len());
        for &o in &init.operands {
            if self.shape(o).is_array() && self.shape(o).dims() == global {
                match self.remake(o, t, shard, memo, depth + 1)? {
                    Some(p) => elems.push(p),
                    None => return Ok(None),
                }
            } else {
                elems.push(o);
            }
        }
        let (Some(cond_c), Some(body_c)) = (
            remade_callee(self.callees.get(cond.index()), &local_of),
            remade_callee(self.callees.get(body.index()), &local_of),
        ) else {
            return Ok(None);
        };
        let state = local_of(&init.shape);
        let tuple = self.make("tuple", Op::Tuple, elems, state.clone());
        let mut ids = Vec::new();
        for c in [cond_c, body_c] {
            ids.push(ComputationId((self.base + self.new_comps.len()) as u32));
            self.new_comps.push(c);
        }
        let mut ins = HloInstruction::new(&src.name, Op::While, vec![tuple], state);
        ins.called = ids;
        let nw = self.push(ins);
        self.remade_loops.insert(key, Some(nw));
        Ok(Some(nw))
    }

    /// `v` resharded to `to`, once: a value needed the same way twice (a weight in the
    /// forward and the backward pass) is gathered once.
    pub fn reshard(&mut self, v: &Local, to: &HloSharding) -> Result<Local> {
        if v.sharding == *to {
            return Ok(v.clone());
        }
        let key = (v.id, format!("{} -> {to}", v.sharding));
        if let Some(done) = self.resharded.get(&key) {
            return Ok(done.clone());
        }
        let done = self.reshard_uncached(v, to)?;
        self.resharded.insert(key, done.clone());
        Ok(done)
    }

    fn reshard_uncached(&mut self, v: &Local, to: &HloSharding) -> Result<Local> {
        // Partial sums: summed over their groups first.
        if let Some(u) = v.sharding.unreduced_dim() {
            let t = v.sharding.tiling().cloned().ok_or_else(|| {
                Error::internal("an unreduced sharding without a tile assignment")
            })?;
            let add = self.adder(v.global.element_type());
            let id = self.all_reduce(v.id, &t.groups_along(&[u]), add);
            let summed = Local {
                id,
                global: v.global.clone(),
                sharding: v.sharding.reduced(),
            };
            return self.reshard(&summed, to);
        }
        // To partial sums: the value on the first of each group, zeros on the others.
        if let Some(u) = to.unreduced_dim() {
            let whole = self.reshard(v, &to.reduced())?;
            let t = to.tiling().cloned().ok_or_else(|| {
                Error::internal("an unreduced sharding without a tile assignment")
            })?;
            let id = self.first_of_group(whole.id, &t, u)?;
            return Ok(Local {
                id,
                global: v.global.clone(),
                sharding: to.clone(),
            });
        }
        // A tuple: element by element.
        if let (Shape::Tuple(globals), HloSharding::Tuple(have)) = (&v.global, &v.sharding) {
            let want = match to {
                HloSharding::Tuple(w) => w.clone(),
                other => vec![other.clone(); globals.len()],
            };
            if have.len() == want.len() && have.iter().zip(&want).all(|(a, b)| a == b) {
                return Ok(v.clone());
            }
            let locals = match self.shape(v.id) {
                Shape::Tuple(t) => t.clone(),
                _ => return Err(Error::internal("a tuple value with a non-tuple piece")),
            };
            let mut parts = Vec::new();
            for (k, g) in globals.iter().enumerate() {
                let elem = self.make(
                    "get-tuple-element",
                    Op::GetTupleElement { index: k },
                    vec![v.id],
                    locals[k].clone(),
                );
                let part = Local {
                    id: elem,
                    global: g.clone(),
                    sharding: have.get(k).cloned().unwrap_or(HloSharding::Replicated),
                };
                let w = want.get(k).cloned().unwrap_or(HloSharding::Replicated);
                parts.push(self.reshard(&part, &w)?);
            }
            let shape = Shape::Tuple(parts.iter().map(|p| self.shape(p.id).clone()).collect());
            let id = self.make(
                "tuple",
                Op::Tuple,
                parts.iter().map(|p| p.id).collect(),
                shape,
            );
            return Ok(Local {
                id,
                global: v.global.clone(),
                sharding: HloSharding::Tuple(parts.into_iter().map(|p| p.sharding).collect()),
            });
        }
        let rank = v.global.rank();
        let same = |a: &HloSharding, b: &HloSharding| {
            same_placement(a, b, rank, self.grid.partitions as usize)
        };
        if same(&v.sharding, to) || !v.global.is_array() {
            return Ok(Local {
                id: v.id,
                global: v.global.clone(),
                sharding: to.clone(),
            });
        }
        if matches!(v.sharding, HloSharding::Manual) || matches!(to, HloSharding::Manual) {
            return Err(Error::unimplemented(format!(
                "resharding a value between {} and {} (a shard_map's values stay inside it)",
                v.sharding, to
            )));
        }
        if let Some(id) = self.reshard_by_regions(v, to)? {
            return Ok(Local {
                id,
                global: v.global.clone(),
                sharding: to.clone(),
            });
        }
        let whole = self.gather_all(v)?;
        let id = self.split(whole, &v.global, to)?;
        Ok(Local {
            id,
            global: v.global.clone(),
            sharding: to.clone(),
        })
    }
}

/// A piece of an array: per dimension, `[lo, hi)`.
type Region = Vec<(i64, i64)>;

fn bytes(s: &Shape) -> i64 {
    s.element_count() * s.element_type().byte_size() as i64
}

/// A copy of a loop's condition or body `c` with its values' shapes changed by `local_of`
/// (renamed, to stay unique in the module), or `None` where a changed value is made or used
/// by anything but an element-wise step, a broadcast of a scalar, the state's parameter,
/// its elements and the tuple of the next state.
fn remade_callee(
    c: Option<&HloComputation>,
    local_of: &dyn Fn(&Shape) -> Shape,
) -> Option<HloComputation> {
    let c = c?;
    let changed = |id: InstrId| {
        let sh = &c.instructions[id.index()].shape;
        local_of(sh) != *sh
    };
    let mut out = c.clone();
    out.name = format!("{}.piece", c.name);
    for (i, ins) in out.instructions.iter_mut().enumerate() {
        let orig = &c.instructions[i];
        let shape = local_of(&orig.shape);
        if shape != orig.shape || orig.operands.iter().any(|&o| changed(o)) {
            let ok = orig.called.is_empty()
                && match &orig.op {
                    op if op.is_elementwise_compute() => true,
                    Op::Parameter { .. }
                    | Op::GetTupleElement { .. }
                    | Op::Tuple
                    | Op::BitcastConvert => true,
                    Op::Broadcast { .. } => orig
                        .operands
                        .first()
                        .is_some_and(|&o| c.instructions[o.index()].shape.dims().is_empty()),
                    _ => false,
                };
            if !ok {
                return None;
            }
        }
        ins.shape = shape;
        ins.name = format!("{}.piece", orig.name);
    }
    Some(out)
}
