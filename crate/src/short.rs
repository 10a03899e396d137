//! `Short`: text kept inline when it fits in 22 bytes, else on the heap. A field's shown value
//! is usually a number or a short name; a MeshSet has about 1,200 of them, and one heap
//! string each was a sixth of decoding it and of dropping it again.

use serde::{Serialize, Serializer};
use std::fmt;

const INLINE: usize = 22;

#[derive(Clone)]
pub enum Short {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(String),
}

impl Short {
    pub fn as_str(&self) -> &str {
        match self {
            // Only `From` fills `bytes`, always with whole UTF-8 text.
            Short::Inline { len, bytes } => std::str::from_utf8(&bytes[..*len as usize]).unwrap_or(""),
            Short::Heap(s) => s,
        }
    }
}

impl Default for Short {
    fn default() -> Short {
        Short::Inline { len: 0, bytes: [0; INLINE] }
    }
}

impl From<&str> for Short {
    fn from(s: &str) -> Short {
        if s.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            Short::Inline { len: s.len() as u8, bytes }
        } else {
            Short::Heap(s.to_string())
        }
    }
}

impl From<String> for Short {
    fn from(s: String) -> Short {
        if s.len() <= INLINE { Short::from(s.as_str()) } else { Short::Heap(s) }
    }
}

impl From<&String> for Short {
    fn from(s: &String) -> Short {
        Short::from(s.as_str())
    }
}

impl std::ops::Deref for Short {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Short {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Short {
    fn eq(&self, o: &Short) -> bool {
        self.as_str() == o.as_str()
    }
}

impl PartialEq<str> for Short {
    fn eq(&self, o: &str) -> bool {
        self.as_str() == o
    }
}

impl PartialEq<&str> for Short {
    fn eq(&self, o: &&str) -> bool {
        self.as_str() == *o
    }
}

impl PartialEq<String> for Short {
    fn eq(&self, o: &String) -> bool {
        self.as_str() == o
    }
}

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Short {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for Short {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_stays_inline_and_long_text_goes_to_the_heap() {
        for s in ["", "7", "0x0a (Float3)", "ééé multi-byte ✓", "exactly twenty-two b.."] {
            let t = Short::from(s);
            assert!(matches!(t, Short::Inline { .. }), "{s}");
            assert_eq!(t, s);
            assert_eq!(t.to_string(), s);
        }
        let long = "a value of more than twenty-two bytes";
        assert!(matches!(Short::from(long.to_string()), Short::Heap(_)));
        assert_eq!(Short::from(long).as_str(), long);
        assert_eq!(serde_json::to_string(&Short::from("a\"b")).unwrap(), r#""a\"b""#);
    }
}
