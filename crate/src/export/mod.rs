//! Exports of the neutral mesh.

pub mod obj;
pub mod gltf;
