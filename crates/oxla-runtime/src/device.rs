//! Device assignment: which device runs the program instance of each (replica, partition),
//! with XLA's `DeviceAssignment` semantics and its default placement.

use oxla_hlo::{Error, GridSize, Result};

/// `device(replica, partition)` for every process of a replica × partition grid.
///
/// ```
/// use oxla_runtime::DeviceAssignment;
/// // XLA's default: partition-major, device = partition * replicas + replica.
/// let a = DeviceAssignment::default_for(2, 2);
/// assert_eq!(a.device(1, 0), 1);
/// assert_eq!(a.device(0, 1), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceAssignment {
    replicas: usize,
    partitions: usize,
    /// Indexed replica-major: `[replica * partitions + partition]`.
    devices: Vec<usize>,
}

impl DeviceAssignment {
    /// `devices[replica][partition]`.
    pub fn new(devices: Vec<Vec<usize>>) -> Result<DeviceAssignment> {
        let replicas = devices.len();
        let partitions = devices.first().map_or(0, Vec::len);
        if replicas == 0 || partitions == 0 || devices.iter().any(|r| r.len() != partitions) {
            return Err(Error::invalid(
                "a device assignment is a non-empty replicas × partitions table",
            ));
        }
        Ok(DeviceAssignment {
            replicas,
            partitions,
            devices: devices.into_iter().flatten().collect(),
        })
    }

    /// XLA's default placement (`ComputationPlacer`): partition-major.
    pub fn default_for(replicas: usize, partitions: usize) -> DeviceAssignment {
        let (r, p) = (replicas.max(1), partitions.max(1));
        DeviceAssignment {
            replicas: r,
            partitions: p,
            devices: (0..r)
                .flat_map(|ri| (0..p).map(move |pi| pi * r + ri))
                .collect(),
        }
    }

    /// Replicas of the assignment.
    pub fn replicas(&self) -> usize {
        self.replicas
    }

    /// Partitions of the assignment.
    pub fn partitions(&self) -> usize {
        self.partitions
    }

    /// The device of (`replica`, `partition`).
    pub fn device(&self, replica: usize, partition: usize) -> usize {
        self.devices[replica * self.partitions + partition]
    }

    /// The grid it places must be `grid`, on distinct devices of a client with
    /// `device_count` of them.
    pub(crate) fn check(&self, grid: GridSize, device_count: usize) -> Result<()> {
        if self.replicas as i64 != grid.replicas || self.partitions as i64 != grid.partitions {
            return Err(Error::invalid(format!(
                "the device assignment is {} × {}, the program runs {} replicas × {} partitions",
                self.replicas, self.partitions, grid.replicas, grid.partitions
            )));
        }
        let mut seen = vec![false; device_count];
        for &d in &self.devices {
            if d >= device_count {
                return Err(Error::invalid(format!(
                    "the program needs device {d} ({} replicas × {} partitions), the client has {device_count} device(s): use Client::cpu_with(ClientOptions {{ devices, .. }})",
                    grid.replicas, grid.partitions
                )));
            }
            if std::mem::replace(&mut seen[d], true) {
                return Err(Error::invalid(format!(
                    "the device assignment uses device {d} twice"
                )));
            }
        }
        Ok(())
    }
}
