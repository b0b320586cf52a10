//! `PJRT_Buffer`: an array on one device. Its value is a promise of the runtime's immutable,
//! reference-counted buffer (an execution may still be computing it); deleting or donating
//! the buffer gives the value up. Host transfers honour byte strides both ways.

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use oxla_hlo::{ArrayShape, PrimitiveType};
use oxla_runtime::Buffer as RtBuffer;

use crate::client::Client;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::event::{Completion, Event, Promise};
use crate::ffi::*;
use crate::memory::Memory;
use crate::types;

pub type Value = Arc<Promise<RtBuffer>>;

pub struct Buffer {
    pub client: *const Client,
    pub device: *mut Device,
    pub memory: *mut Memory,
    pub ty: PrimitiveType,
    pub dims: Vec<i64>,
    minor_to_major: Vec<i64>,
    /// `None` once deleted or donated.
    value: Mutex<Option<Value>>,
    /// Values lent to the caller as raw pointers (`IncreaseExternalReferenceCount`): kept
    /// alive, and shared so that no donation updates them in place.
    external: Mutex<Vec<RtBuffer>>,
}

impl Buffer {
    pub(crate) fn new(
        client: *const Client,
        device: *mut Device,
        ty: PrimitiveType,
        dims: Vec<i64>,
        value: Value,
    ) -> *mut Buffer {
        // SAFETY: devices handed to buffers are the client's, alive as long as it is.
        let memory = unsafe { (*device).memory };
        let n = dims.len() as i64;
        Box::into_raw(Box::new(Buffer {
            client,
            device,
            memory,
            ty,
            minor_to_major: (0..n).rev().collect(),
            dims,
            value: Mutex::new(Some(value)),
            external: Mutex::new(Vec::new()),
        }))
    }

    pub fn size_bytes(&self) -> usize {
        self.dims.iter().product::<i64>().max(0) as usize * self.ty.byte_size()
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Value>> {
        self.value.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value's promise (an error if the buffer was deleted or donated).
    pub fn value(&self) -> Result<Value> {
        self.slot()
            .clone()
            .ok_or_else(|| Error::precondition("the buffer has been deleted or donated"))
    }

    /// Gives the value up (donation): the buffer reads as deleted from now on.
    pub fn take(&self) -> Result<Value> {
        self.slot()
            .take()
            .ok_or_else(|| Error::precondition("the buffer has been deleted or donated"))
    }

    pub fn is_deleted(&self) -> bool {
        self.slot().is_none()
    }

    /// The computed value (waits for it).
    pub fn wait(&self) -> Result<RtBuffer> {
        self.value()?.wait()
    }

    pub fn has_external_references(&self) -> bool {
        !self
            .external
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }
}

/// Copies `bytes` from host memory laid out with `strides` (bytes, per dimension) into a
/// dense row-major vector, or the reverse (`to_host`).
///
/// # Safety
/// `host` covers every element the strides address.
unsafe fn strided_copy(
    host: *mut u8,
    dense: &mut [u8],
    dims: &[i64],
    strides: &[i64],
    elem: usize,
    to_host: bool,
) {
    let n = dims.len();
    let count: i64 = dims.iter().product();
    if count <= 0 {
        return;
    }
    // Innermost dimension contiguous: copy whole rows.
    let (run, outer) = if n > 0 && strides[n - 1] == elem as i64 {
        (dims[n - 1] as usize * elem, n - 1)
    } else {
        (elem, n)
    };
    let mut idx = vec![0i64; outer];
    let mut off = 0usize;
    loop {
        let host_off: i64 = idx.iter().zip(strides).map(|(i, s)| i * s).sum();
        let h = host.offset(host_off as isize);
        let d = &mut dense[off..off + run];
        if to_host {
            std::ptr::copy_nonoverlapping(d.as_ptr(), h, run);
        } else {
            std::ptr::copy_nonoverlapping(h, d.as_mut_ptr(), run);
        }
        off += run;
        // Next index, row-major over the outer dimensions.
        let mut k = outer;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < dims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

fn row_major_strides(dims: &[i64], elem: usize) -> Vec<i64> {
    let mut s = vec![0i64; dims.len()];
    let mut acc = elem as i64;
    for k in (0..dims.len()).rev() {
        s[k] = acc;
        acc *= dims[k].max(1);
    }
    s
}

/// The byte strides a host layout asks for (`None`: dense row-major).
///
/// # Safety
/// `layout` is NULL or a valid `PJRT_Buffer_MemoryLayout` (its struct_size is not read:
/// callers leave it uninitialised).
unsafe fn host_strides(
    layout: *const PJRT_Buffer_MemoryLayout,
    dims: &[i64],
    elem: usize,
) -> Result<Option<Vec<i64>>> {
    let Some(l) = layout.as_ref() else {
        return Ok(None);
    };
    match l.ty {
        LAYOUT_STRIDES => {
            let s = l.layout.strides;
            if s.num_byte_strides != dims.len() {
                return Err(Error::invalid(format!(
                    "{} byte strides for {} dimensions",
                    s.num_byte_strides,
                    dims.len()
                )));
            }
            Ok(Some(slice(s.byte_strides, s.num_byte_strides).to_vec()))
        }
        LAYOUT_TILED => {
            let t = l.layout.tiled;
            if t.num_tiles != 0 {
                return Err(Error::unimplemented("tiled host layouts"));
            }
            let m2m = slice(t.minor_to_major, t.minor_to_major_size);
            if m2m.is_empty() && !dims.is_empty() {
                return Ok(None);
            }
            let mut seen = vec![false; dims.len()];
            if m2m.len() != dims.len()
                || m2m.iter().any(|&d| {
                    usize::try_from(d)
                        .ok()
                        .filter(|&d| d < dims.len())
                        .is_none_or(|d| std::mem::replace(&mut seen[d], true))
                })
            {
                return Err(Error::invalid(format!(
                    "minor_to_major {m2m:?} is not a permutation of {} dimensions",
                    dims.len()
                )));
            }
            let mut s = vec![0i64; dims.len()];
            let mut acc = elem as i64;
            for &d in m2m {
                s[d as usize] = acc;
                acc *= dims[d as usize].max(1);
            }
            Ok(Some(s))
        }
        t => Err(Error::invalid(format!("unknown memory layout type {t}"))),
    }
}

fn check_dims(dims: &[i64]) -> Result<()> {
    if dims.iter().any(|&d| d < 0) {
        return Err(Error::invalid(format!("negative dimension in {dims:?}")));
    }
    dims.iter()
        .try_fold(1i64, |a, &d| a.checked_mul(d))
        .ok_or_else(|| Error::invalid(format!("dimensions {dims:?} overflow")))?;
    Ok(())
}

entry!(
    buffer_from_host_buffer,
    PJRT_Client_BufferFromHostBuffer_Args,
    |a| {
        let client = unsafe { handle(a.client, "client")? };
        let ty = types::from_pjrt(a.ty)?;
        let dims = unsafe { slice(a.dims, a.num_dims) }.to_vec();
        check_dims(&dims)?;
        let device = if !a.device.is_null() {
            client.check_device(a.device)?
        } else if !a.memory.is_null() {
            client.memory_device(a.memory)?
        } else {
            client.default_device()?
        };
        if !a.device_layout.is_null() {
            let l = unsafe { &*a.device_layout };
            let row_major = l.ty == LAYOUT_TILED
                && unsafe {
                    let t = l.layout.tiled;
                    t.num_tiles == 0
                        && slice(t.minor_to_major, t.minor_to_major_size)
                            .iter()
                            .eq((0..dims.len() as i64).rev().collect::<Vec<_>>().iter())
                };
            if !row_major {
                return Err(Error::unimplemented(
                    "device layouts other than dense row-major",
                ));
            }
        }
        let elem = ty.byte_size();
        let size = dims.iter().product::<i64>() as usize * elem;
        let dense_strides = row_major_strides(&dims, elem);
        let strides = unsafe { slice(a.byte_strides, a.num_byte_strides) };
        if !strides.is_empty() && strides.len() != dims.len() {
            return Err(Error::invalid(format!(
                "{} byte strides for {} dimensions",
                strides.len(),
                dims.len()
            )));
        }
        if size > 0 && a.data.is_null() {
            return Err(Error::invalid("data is NULL"));
        }
        let shape = ArrayShape::new(ty, &dims);
        let dense_input = strides.is_empty() || strides == dense_strides.as_slice() || size == 0;
        let rt = if dense_input && !types::host_form_differs(ty) {
            let data = unsafe { bytes(a.data as *const _, size) };
            RtBuffer::from_bytes(shape, data)?
        } else {
            let mut dense = vec![0u8; size];
            if dense_input {
                dense.copy_from_slice(unsafe { bytes(a.data as *const _, size) });
            } else {
                unsafe { strided_copy(a.data as *mut u8, &mut dense, &dims, strides, elem, false) };
            }
            types::from_host_bytes(ty, &mut dense);
            RtBuffer::from_bytes(shape, &dense)?
        };
        // The data was copied: the host buffer is free as soon as this returns.
        a.done_with_host_buffer = Event::ready();
        a.buffer = Buffer::new(client, device, ty, dims, Promise::ready(Ok(rt)));
        Ok(())
    }
);

entry!(buffer_destroy, PJRT_Buffer_Destroy_Args, |a| {
    if !a.buffer.is_null() {
        // SAFETY: made by Buffer::new, destroyed once by the caller.
        drop(unsafe { Box::from_raw(a.buffer) });
    }
    Ok(())
});

entry!(buffer_element_type, PJRT_Buffer_ElementType_Args, |a| {
    a.ty = types::to_pjrt(unsafe { handle(a.buffer, "buffer")? }.ty);
    Ok(())
});

entry!(buffer_dimensions, PJRT_Buffer_Dimensions_Args, |a| {
    let b = unsafe { handle(a.buffer, "buffer")? };
    a.dims = b.dims.as_ptr();
    a.num_dims = b.dims.len();
    Ok(())
});

entry!(
    buffer_unpadded_dimensions,
    PJRT_Buffer_UnpaddedDimensions_Args,
    |a| {
        let b = unsafe { handle(a.buffer, "buffer")? };
        a.unpadded_dims = b.dims.as_ptr();
        a.num_dims = b.dims.len();
        Ok(())
    }
);

entry!(
    buffer_dynamic_dimension_indices,
    PJRT_Buffer_DynamicDimensionIndices_Args,
    |a| {
        a.dynamic_dim_indices = std::ptr::null();
        a.num_dynamic_dims = 0;
        Ok(())
    }
);

entry!(
    buffer_get_memory_layout,
    PJRT_Buffer_GetMemoryLayout_Args,
    |a| {
        let b = unsafe { handle(a.buffer, "buffer")? };
        a.layout = PJRT_Buffer_MemoryLayout {
            struct_size: std::mem::size_of::<PJRT_Buffer_MemoryLayout>(),
            extension_start: std::ptr::null_mut(),
            layout: LayoutUnion {
                tiled: LayoutTiled {
                    struct_size: std::mem::size_of::<LayoutTiled>(),
                    extension_start: std::ptr::null_mut(),
                    minor_to_major: b.minor_to_major.as_ptr(),
                    minor_to_major_size: b.minor_to_major.len(),
                    tile_dims: std::ptr::null(),
                    tile_dim_sizes: std::ptr::null(),
                    num_tiles: 0,
                },
            },
            ty: LAYOUT_TILED,
        };
        Ok(())
    }
);

entry!(
    buffer_on_device_size,
    PJRT_Buffer_OnDeviceSizeInBytes_Args,
    |a| {
        a.on_device_size_in_bytes = unsafe { handle(a.buffer, "buffer")? }.size_bytes();
        Ok(())
    }
);

entry!(buffer_device, PJRT_Buffer_Device_Args, |a| {
    a.device = unsafe { handle(a.buffer, "buffer")? }.device;
    Ok(())
});

entry!(buffer_memory, PJRT_Buffer_Memory_Args, |a| {
    a.memory = unsafe { handle(a.buffer, "buffer")? }.memory;
    Ok(())
});

entry!(buffer_delete, PJRT_Buffer_Delete_Args, |a| {
    unsafe { handle(a.buffer, "buffer")? }.slot().take();
    Ok(())
});

entry!(buffer_is_deleted, PJRT_Buffer_IsDeleted_Args, |a| {
    a.is_deleted = unsafe { handle(a.buffer, "buffer")? }.is_deleted();
    Ok(())
});

/// A buffer on `device` sharing `b`'s value (buffers are immutable, so no copy is needed).
fn share(b: &Buffer, device: *mut Device) -> Result<*mut Buffer> {
    Ok(Buffer::new(
        b.client,
        device,
        b.ty,
        b.dims.clone(),
        b.value()?,
    ))
}

entry!(buffer_copy_to_device, PJRT_Buffer_CopyToDevice_Args, |a| {
    let b = unsafe { handle(a.buffer, "buffer")? };
    let client = unsafe { &*b.client };
    a.dst_buffer = share(b, client.check_device(a.dst_device)?)?;
    Ok(())
});

entry!(buffer_copy_to_memory, PJRT_Buffer_CopyToMemory_Args, |a| {
    let b = unsafe { handle(a.buffer, "buffer")? };
    let client = unsafe { &*b.client };
    a.dst_buffer = share(b, client.memory_device(a.dst_memory)?)?;
    Ok(())
});

#[derive(Clone, Copy)]
struct SendPtr(*mut u8);
// SAFETY: the caller keeps the destination alive until the event it was given fires.
unsafe impl Send for SendPtr {}

/// Runs `copy` on the value once it is computed; the returned event fires after it.
fn when_ready(
    value: Value,
    copy: impl FnOnce(&RtBuffer) -> Result<()> + Send + 'static,
) -> *mut Event {
    let done = Promise::<()>::pending();
    let d = done.clone();
    let v = value.clone();
    value.on_ready(Box::new(move |_| {
        d.set(v.wait().and_then(|b| copy(&b)));
    }));
    Event::new(done)
}

entry!(buffer_to_host_buffer, PJRT_Buffer_ToHostBuffer_Args, |a| {
    let b = unsafe { handle(a.src, "src")? };
    let elem = b.ty.byte_size();
    let strides = unsafe { host_strides(a.host_layout, &b.dims, elem)? };
    let dense = row_major_strides(&b.dims, elem);
    let need = match &strides {
        Some(s) if *s != dense && b.size_bytes() > 0 => {
            // The furthest byte addressed, plus one element.
            b.dims
                .iter()
                .zip(s)
                .map(|(&d, &s)| (d - 1).max(0) * s.max(0))
                .sum::<i64>() as usize
                + elem
        }
        _ => b.size_bytes(),
    };
    if a.dst.is_null() {
        a.dst_size = need;
        a.event = Event::ready();
        return Ok(());
    }
    if a.dst_size < need {
        return Err(Error::invalid(format!(
            "dst_size {} < {need} bytes needed",
            a.dst_size
        )));
    }
    let dst = SendPtr(a.dst as *mut u8);
    let dims = b.dims.clone();
    let ty = b.ty;
    a.event = when_ready(b.value()?, move |v| {
        let host;
        let src = if types::host_form_differs(ty) {
            let mut h = v.as_bytes().to_vec();
            types::to_host_bytes(ty, &mut h);
            host = h;
            &host[..]
        } else {
            v.as_bytes()
        };
        let dst = dst;
        match strides {
            Some(s) if s != dense => {
                let mut tmp = src.to_vec();
                // SAFETY: the caller's dst covers the strided extent (checked above).
                unsafe { strided_copy(dst.0, &mut tmp, &dims, &s, elem, true) };
            }
            // SAFETY: dst holds at least size_bytes (checked above).
            _ => unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst.0, src.len()) },
        }
        Ok(())
    });
    Ok(())
});

entry!(
    buffer_copy_raw_to_host,
    PJRT_Buffer_CopyRawToHost_Args,
    |a| {
        let b = unsafe { handle(a.buffer, "buffer")? };
        let (off, len) = (a.offset, a.transfer_size);
        if off < 0 || len < 0 || (off + len) as usize > b.size_bytes() {
            return Err(Error::invalid(format!(
                "bytes [{off}, {off}+{len}) of a {}-byte buffer",
                b.size_bytes()
            )));
        }
        if a.dst.is_null() && len > 0 {
            return Err(Error::invalid("dst is NULL"));
        }
        let dst = SendPtr(a.dst as *mut u8);
        a.event = when_ready(b.value()?, move |v| {
            let dst = dst;
            let src = &v.as_bytes()[off as usize..(off + len) as usize];
            // SAFETY: the caller's dst holds transfer_size bytes.
            unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst.0, src.len()) };
            Ok(())
        });
        Ok(())
    }
);

entry!(buffer_is_on_cpu, PJRT_Buffer_IsOnCpu_Args, |a| {
    unsafe { handle(a.buffer, "buffer")? };
    a.is_on_cpu = true;
    Ok(())
});

entry!(buffer_ready_event, PJRT_Buffer_ReadyEvent_Args, |a| {
    let b = unsafe { handle(a.buffer, "buffer")? };
    a.event = Event::new(b.value()?);
    Ok(())
});

/// The address of the computed value's elements.
fn data_pointer(b: &Buffer) -> Result<*mut c_void> {
    Ok(b.wait()?.memory_address() as *mut c_void)
}

entry!(buffer_unsafe_pointer, PJRT_Buffer_UnsafePointer_Args, |a| {
    a.buffer_pointer = data_pointer(unsafe { handle(a.buffer, "buffer")? })? as usize;
    Ok(())
});

entry!(
    buffer_opaque_device_memory_pointer,
    PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args,
    |a| {
        a.device_memory_ptr = data_pointer(unsafe { handle(a.buffer, "buffer")? })?;
        Ok(())
    }
);

entry!(
    buffer_increase_external_refs,
    PJRT_Buffer_IncreaseExternalReferenceCount_Args,
    |a| {
        let b = unsafe { handle(a.buffer, "buffer")? };
        let v = b.wait()?;
        b.external.lock().unwrap_or_else(|e| e.into_inner()).push(v);
        Ok(())
    }
);

entry!(
    buffer_decrease_external_refs,
    PJRT_Buffer_DecreaseExternalReferenceCount_Args,
    |a| {
        let b = unsafe { handle(a.buffer, "buffer")? };
        let mut ext = b.external.lock().unwrap_or_else(|e| e.into_inner());
        if ext.pop().is_none() {
            return Err(Error::precondition(
                "DecreaseExternalReferenceCount without a matching increase",
            ));
        }
        Ok(())
    }
);
