//! The one bounds-checked cursor every decoder reads through.
//!
//! A `Reader` sees a window of the file and knows the window's absolute offset, so
//! errors and spans always carry file offsets. `sub` hands out a reader limited to a
//! record's own bytes; nothing here indexes a slice without checking it first.

use crate::error::{Error, ErrorKind, Result};

#[derive(Clone, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
    /// Absolute file offset of `data[0]`.
    base: u64,
    pos: usize,
}

macro_rules! read_le {
    ($name:ident, $t:ty, $n:expr) => {
        #[doc = concat!("Reads a little-endian `", stringify!($t), "`.")]
        pub fn $name(&mut self) -> Result<$t> {
            let b = self.array::<$n>()?;
            Ok(<$t>::from_le_bytes(b))
        }
    };
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, base: 0, pos: 0 }
    }

    /// A reader over `data` whose first byte sits at absolute offset `base`.
    pub fn with_base(data: &'a [u8], base: u64) -> Self {
        Reader { data, base, pos: 0 }
    }

    /// Absolute offset of the next byte to read.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Absolute offset of the window's first byte.
    pub fn base(&self) -> u64 {
        self.base
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// The whole window, read or not.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    fn truncated(&self, needed: usize) -> Error {
        Error::new(
            self.offset(),
            "",
            ErrorKind::Truncated { needed: needed as u64, available: self.remaining() as u64 },
        )
    }

    /// Takes the next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        match end {
            Some(end) => {
                let s = &self.data[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(self.truncated(n)),
        }
    }

    /// Looks at the next `n` bytes without taking them.
    pub fn peek(&self, n: usize) -> Result<&'a [u8]> {
        self.clone().bytes(n)
    }

    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.bytes(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Ok(out)
    }

    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.u8()? as i8)
    }

    read_le!(u16, u16, 2);
    read_le!(i16, i16, 2);
    read_le!(u32, u32, 4);
    read_le!(i32, i32, 4);
    read_le!(u64, u64, 8);
    read_le!(f32, f32, 4);
    read_le!(f64, f64, 8);

    pub fn f32x<const N: usize>(&mut self) -> Result<[f32; N]> {
        let mut out = [0f32; N];
        for v in out.iter_mut() {
            *v = self.f32()?;
        }
        Ok(out)
    }

    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.bytes(n).map(|_| ())
    }

    /// Moves to a position inside the window (relative to its start).
    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(Error::new(self.base + pos as u64, "", ErrorKind::Truncated { needed: 0, available: 0 }));
        }
        self.pos = pos;
        Ok(())
    }

    /// A reader limited to the next `len` bytes; this reader moves past them.
    pub fn sub(&mut self, len: usize) -> Result<Reader<'a>> {
        let base = self.offset();
        let data = self.bytes(len)?;
        Ok(Reader { data, base, pos: 0 })
    }

    /// A reader over `[start, start + len)` of this window (relative offsets), without moving.
    pub fn window(&self, start: usize, len: usize) -> Result<Reader<'a>> {
        let end = start.checked_add(len).filter(|&e| e <= self.data.len());
        match end {
            Some(end) => Ok(Reader { data: &self.data[start..end], base: self.base + start as u64, pos: 0 }),
            None => Err(Error::new(
                self.base + start.min(self.data.len()) as u64,
                "",
                ErrorKind::Truncated { needed: len as u64, available: self.data.len().saturating_sub(start) as u64 },
            )),
        }
    }

    /// A reader from relative `start` to the end of this window.
    pub fn from(&self, start: usize) -> Result<Reader<'a>> {
        let len = self.data.len().checked_sub(start).ok_or_else(|| self.truncated(start))?;
        self.window(start, len)
    }

    /// Checks that `count` elements of `elem_size` bytes fit in what is left, before anything
    /// is allocated from a count read from the file. Returns the byte length.
    pub fn check_count(&self, count: u64, elem_size: u64, path: &str) -> Result<usize> {
        let total = count.checked_mul(elem_size);
        match total {
            Some(t) if t <= self.remaining() as u64 => Ok(t as usize),
            _ => Err(Error::limit(
                self.offset(),
                path,
                format!("{count} x {elem_size} bytes do not fit in the {} bytes left", self.remaining()),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_tracks_offsets() {
        let data = [1u8, 0, 2, 0, 0, 0, 0xff];
        let mut r = Reader::with_base(&data, 100);
        assert_eq!(r.u16().unwrap(), 1);
        assert_eq!(r.u32().unwrap(), 2);
        assert_eq!(r.offset(), 106);
        let e = r.u16().unwrap_err();
        assert_eq!(e.offset, 106);
        assert_eq!(e.kind, ErrorKind::Truncated { needed: 2, available: 1 });
        // A failed read does not move the cursor.
        assert_eq!(r.u8().unwrap(), 0xff);
    }

    #[test]
    fn sub_readers_are_limited_to_their_bytes() {
        let data = [0u8; 10];
        let mut r = Reader::new(&data);
        r.skip(2).unwrap();
        let mut s = r.sub(4).unwrap();
        assert_eq!(s.base(), 2);
        assert!(s.u32().is_ok());
        assert!(s.u8().is_err());
        assert_eq!(r.offset(), 6);
        assert!(r.sub(5).is_err());
        assert!(r.window(usize::MAX, 2).is_err());
    }

    #[test]
    fn counts_are_checked_before_allocation() {
        let data = [0u8; 8];
        let r = Reader::new(&data);
        assert_eq!(r.check_count(2, 4, "x").unwrap(), 8);
        assert!(r.check_count(3, 4, "x").is_err());
        assert!(r.check_count(u64::MAX, 2, "x").is_err());
    }
}
