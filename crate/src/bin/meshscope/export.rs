//! `meshscope export`: a file's mesh as Wavefront OBJ (one LOD) or glTF binary (every LOD).
//! Both refuse a mesh with nothing to draw, with one message; a file decoded with errors is
//! exported as far as it decoded and exits 1.

use crate::{open_with_companions, shown, Problems, Stop, EXIT_CODES};
use clap::ValueEnum;
use meshscope::export::{glb_of, obj_of};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// Wavefront OBJ of one LOD (--lod): positions, normals, UV0, a group per section
    Obj,
    /// glTF 2.0 binary of every LOD (Z-up meshes stood upright by a root node)
    Glb,
}

#[derive(clap::Args)]
#[command(after_help = EXIT_CODES)]
pub struct Args {
    /// The file
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The format to write
    #[arg(long, value_enum, default_value = "obj")]
    format: Format,
    /// The LOD to write as OBJ (glb writes every LOD)
    #[arg(long, value_name = "N", default_value_t = 0)]
    lod: usize,
    /// Where to write; without it, stdout (not a terminal for glb)
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
    /// A geometry chunk to attach: PATH (matched by the GUID in its name) or lodN=PATH (to LOD N)
    #[arg(long, value_name = "[lodN=]PATH")]
    chunk: Vec<String>,
}

pub fn run(a: &Args, out: &mut impl Write, problems: &mut Problems) -> Result<(), Stop> {
    if a.output.is_none() && matches!(a.format, Format::Glb) && std::io::stdout().is_terminal() {
        return Err(Stop::Usage("refusing to write binary glTF to a terminal: give -o OUT or redirect stdout".into()));
    }
    let f = shown(&a.file);
    let Some(doc) = open_with_companions(&a.file, &a.chunk, problems) else { return Ok(()) };
    problems.decode_errors(&f, &doc);
    let data = match a.format {
        Format::Obj => obj_of(&doc, a.lod).map(|o| {
            if o.skipped_vertices > 0 {
                problems.note(format!(
                    "{f}: {} vertices with NaN or infinite values and the {} triangles naming them were not written",
                    o.skipped_vertices, o.skipped_triangles
                ));
            }
            o.text.into_bytes()
        }),
        Format::Glb => glb_of(&doc),
    };
    let data = match data {
        Ok(d) => d,
        Err(e) => {
            problems.report(format!("{f}: {e}"));
            return Ok(());
        }
    };
    match &a.output {
        Some(p) => {
            if let Err(e) = std::fs::write(p, data) {
                problems.report(format!("{}: {e}", p.display()));
            }
        }
        None => out.write_all(&data)?,
    }
    Ok(())
}
