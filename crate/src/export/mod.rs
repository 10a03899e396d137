//! Exports of the neutral mesh.

pub mod obj;
