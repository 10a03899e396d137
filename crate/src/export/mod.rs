//! Exports of the neutral mesh.

pub mod gltf;
pub mod obj;
