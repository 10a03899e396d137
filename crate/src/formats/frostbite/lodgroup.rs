//! LOD switch distances are not in a MeshSet (description, "LOD groups"): the WpsDistance
//! table and the two stock LodGroup presets it gives, for previewing LOD switching.

use crate::span::Confidence;
use serde::Serialize;

/// WpsDistance values and their names, with the description's confidence.
pub const WPS_DISTANCE: [(u32, &str, Confidence); 8] = [
    (0, "Persistent", Confidence::Inferred),
    (1, "ExtraLongCull", Confidence::Inferred),
    (2, "LongVista", Confidence::Observed),
    (3, "LongCull", Confidence::Inferred),
    (4, "MediumVista", Confidence::Observed),
    (5, "MediumCull", Confidence::Observed),
    (6, "ShortCull", Confidence::Observed),
    (7, "DetailCull", Confidence::Observed),
];

/// A stock LodGroup: switch distances in metres (Lod1, Lod2, ...).
#[derive(Debug, Clone, Serialize)]
pub struct LodGroup {
    pub name: &'static str,
    pub distances: &'static [f32],
    pub cull_screen_area: f32,
    pub wps_distance: Option<u32>,
}

/// The two presets the description names (Observed).
pub const PRESETS: [LodGroup; 2] = [
    LodGroup {
        name: "WorldObject_MediumVista_2Lod",
        distances: &[90.0, 1000.0],
        cull_screen_area: 0.005,
        wps_distance: Some(4),
    },
    LodGroup { name: "DingoVistaLodGroup", distances: &[10_000.0], cull_screen_area: 0.0, wps_distance: None },
];

/// The LOD drawn at `distance` under `group`, for a mesh with `lod_count` LODs: LOD k is drawn
/// until the distance passes Lod(k+1); never past the mesh's last LOD.
pub fn lod_at(group: &LodGroup, distance: f32, lod_count: usize) -> usize {
    let k = group.distances.iter().take_while(|&&d| distance >= d).count();
    k.min(lod_count.saturating_sub(1))
}

pub fn wps_name(v: u32) -> Option<&'static str> {
    WPS_DISTANCE.iter().find(|w| w.0 == v).map(|w| w.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medium_vista_switches_at_90_m() {
        let g = &PRESETS[0];
        assert_eq!(lod_at(g, 10.0, 3), 0);
        assert_eq!(lod_at(g, 90.0, 3), 1);
        assert_eq!(lod_at(g, 5000.0, 3), 2);
        assert_eq!(lod_at(g, 5000.0, 2), 1);
        assert_eq!(wps_name(g.wps_distance.unwrap()), Some("MediumVista"));
    }
}
