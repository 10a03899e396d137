//! The `meshset` object of `inspect --json`, and the companions found beside a MeshSet:
//! geometry chunks whose file names carry a LOD's GUID, and `NAME.resmeta`.

use meshscope::djb2_xor;
use meshscope::document::Document;
use meshscope::formats::frostbite::{guid, header, lodgroup, MeshSetDetails};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn pair(stored: f64, measured: Option<f64>) -> Value {
    let ratio = measured.map(|m| meshscope::formats::frostbite::measures::ratio(stored, m)).filter(|r| r.is_finite());
    json!({"stored": stored, "measured": measured, "ratio": ratio})
}

pub fn inspect(doc: &Document) -> Option<(&'static str, Value)> {
    let m = doc.details.get::<MeshSetDetails>()?;
    let h = &m.header;
    let lods: Vec<Value> = m
        .lods
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let me = m.measures.get(i);
            let sections: Vec<Value> = l
                .sections
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let mm = me.and_then(|v| v.get(k));
                    json!({
                        "material": s.material,
                        "material_hash_ok": djb2_xor(s.material.to_lowercase().as_bytes()) == s.material_hash,
                        "vertices": s.vertex_count,
                        "triangles": s.primitive_count,
                        "passes": meshscope::formats::frostbite::chunk::passes_of(l, k),
                        "area": pair(s.area as f64, mm.map(|x| x.area)),
                        "uv0_density": pair(s.uv_density[0] as f64, mm.and_then(|x| x.uv_density[0])),
                        "uv1_density": pair(s.uv_density[1] as f64, mm.and_then(|x| x.uv_density[1])),
                    })
                })
                .collect();
            json!({
                "chunk_guid": guid::text(&l.chunk),
                "inline": l.inline(),
                "chunk_found": m.chunk_found.get(i).copied().unwrap_or(false),
                "index_size": l.index_size(),
                "vertex_bytes": l.vertex_bytes,
                "index_bytes": l.index_bytes,
                "name": l.name,
                "passes": meshscope::formats::frostbite::lod::PASSES.iter().zip(&l.lists)
                    .map(|(p, list)| (p.to_string(), json!(list))).collect::<serde_json::Map<_, _>>(),
                "sections": sections,
            })
        })
        .collect();
    let presets: Vec<Value> = lodgroup::PRESETS.iter().map(|g| json!(g)).collect();
    let wps: Vec<Value> =
        lodgroup::WPS_DISTANCE.iter().map(|(v, n, c)| json!({"value": v, "name": n, "confidence": c})).collect();
    Some((
        "meshset",
        json!({
            "name": h.name,
            "name_hash": h.name_hash,
            "name_hash_ok": djb2_xor(h.name.as_bytes()) == h.name_hash,
            "mesh_type": h.mesh_type,
            "mesh_type_name": header::MESH_TYPES.get(h.mesh_type as usize),
            "lod_count": m.lods.len(),
            "lods": lods,
            "resmeta": {"stored": m.resmeta_stored, "computed": m.resmeta_computed},
            "relocation_entries": m.relocation.len(),
            "lod_groups": presets,
            "wps_distance": wps,
        }),
    ))
}

/// The metadata beside `m0.res` (`m0.res.resmeta`, else `m0.resmeta`) and the chunk files in
/// the resource's folder whose names carry a LOD's GUID.
pub fn companions(doc: &Document, path: &Path) -> Vec<PathBuf> {
    let Some(m) = doc.details.get::<MeshSetDetails>() else { return Vec::new() };
    let mut out = Vec::new();
    let beside = [PathBuf::from(format!("{}.resmeta", path.display())), path.with_extension("resmeta")];
    if let Some(meta) = beside.into_iter().find(|p| p.is_file() && p.as_path() != path) {
        out.push(meta);
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.as_path() != path)
        .filter(|p| {
            let n = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            !n.ends_with(".resmeta")
                && guid::from_name(&n).is_some_and(|g| m.lods.iter().any(|l| !l.inline() && l.chunk == g))
        })
        .collect();
    found.sort();
    out.extend(found);
    out
}

/// `--chunk lodN=PATH` attaches a chunk to LOD N by hand, whatever its name says.
pub fn by_hand(arg: &str) -> Option<(usize, String)> {
    let (lod, path) = arg.split_once('=')?;
    let n = lod.strip_prefix("lod")?.parse().ok()?;
    Some((n, path.to_string()))
}

/// Attaches by hand; a chunk whose name carries another GUID than the LOD's is said first, on
/// stderr, before anything its decode reports (the check is in the document too).
pub fn attach_to(doc: &mut Document, lod: usize, name: &str, bytes: Vec<u8>) -> Result<(), meshscope::Error> {
    let chunk = doc.attach_to_lod(lod, name, bytes)?;
    if let Some(c) = chunk.checks().iter().find(|c| c.name.starts_with("attached chunk's GUID") && !c.passed) {
        eprintln!("warning: {}; {}", c.measured, c.stored);
    }
    Ok(())
}
