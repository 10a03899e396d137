//! The 3D view: three-d on the page canvas's WebGL2 context. JS owns the frame loop and the
//! input; it hands over one LOD as typed arrays (from `docs.mesh`, which may come from another
//! wasm instance) and calls `render` when something changed. Shading and picking live here.

mod lines;
mod material;
mod orbit;
mod scene;

use lines::{LineProgram, Lines};
use orbit::Orbit;
use scene::Geometry;
use std::sync::Arc;
use three_d::Geometry as _;
use three_d::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, WebGl2RenderingContext};

const FOV: f32 = 0.8;
/// Dashes per edge of a measured box.
const DASHES: u32 = 8;

/// Option bits of `set_options`.
pub const WIREFRAME: u32 = 1;
pub const NORMALS: u32 = 2;
pub const TANGENTS: u32 = 4;
pub const BOUNDS: u32 = 8;
pub const CHECKER: u32 = 16;
pub const CULL: u32 = 32;

#[wasm_bindgen]
pub struct Viewer {
    ctx: Context,
    lines: LineProgram,
    orbit: Orbit,
    width: u32,
    height: u32,
    options: u32,
    geo: Option<Geometry>,
    parts: Vec<scene::Part>,
    overlays: Vec<(u32, three_d::Mesh)>,
    /// Line sets by name: rebuilt when their input changes.
    sets: Vec<(&'static str, Lines)>,
    /// The clear color (r, g, b in 0..1): the page's theme.
    background: [f32; 3],
}

fn err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

#[wasm_bindgen]
impl Viewer {
    /// Wraps the canvas's WebGL2 context (multisampled when `antialias`). Fails with a message
    /// when WebGL2 is not there.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement, antialias: bool) -> Result<Viewer, JsError> {
        let opts = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&opts, &"antialias".into(), &antialias.into());
        let _ = js_sys::Reflect::set(&opts, &"preserveDrawingBuffer".into(), &true.into());
        let gl: WebGl2RenderingContext = canvas
            .get_context_with_context_options("webgl2", &opts)
            .map_err(|_| JsError::new("WebGL2 is not available"))?
            .ok_or_else(|| JsError::new("WebGL2 is not available in this browser"))?
            .dyn_into()
            .map_err(|_| JsError::new("not a WebGL2 context"))?;
        let glow = three_d::context::Context::from_webgl2_context(gl);
        // three-d takes the context in an Arc; the page uses it on one thread only.
        #[allow(clippy::arc_with_non_send_sync)]
        let ctx = Context::from_gl_context(Arc::new(glow)).map_err(err)?;
        let lines = LineProgram::new(&ctx).map_err(err)?;
        Ok(Viewer {
            ctx,
            lines,
            orbit: Orbit::new(),
            width: canvas.width().max(1),
            height: canvas.height().max(1),
            options: 0,
            geo: None,
            parts: Vec::new(),
            overlays: Vec::new(),
            sets: Vec::new(),
            background: [0.93, 0.93, 0.91],
        })
    }

    /// The color behind the mesh (r, g, b in 0..1), so the view follows the page's theme.
    pub fn set_background(&mut self, r: f32, g: f32, b: f32) {
        self.background = [r, g, b].map(|c| if c.is_finite() { c.clamp(0.0, 1.0) } else { 0.0 });
    }

    /// One LOD's arrays (flat, as `docs.mesh` gives them); frames the camera on it. Missing or
    /// short normals are computed from the faces; missing UVs are zeros.
    pub fn set_geometry(
        &mut self,
        positions: Vec<f32>,
        normals: Vec<f32>,
        tangents: Vec<f32>,
        uvs: Vec<f32>,
        indices: Vec<u32>,
    ) {
        self.clear();
        let g = Geometry::new(positions, normals, tangents, uvs, indices);
        if let Some((min, max)) = g.bounds {
            self.orbit.frame(min, max, FOV);
        }
        self.geo = Some(g);
    }

    /// Sections as parallel arrays: index start and count, flags (1 mirrored, 2 two-sided) and
    /// an r, g, b color each. Builds one GPU mesh per section.
    pub fn set_sections(
        &mut self,
        starts: Vec<u32>,
        counts: Vec<u32>,
        flags: Vec<u8>,
        colors: Vec<f32>,
    ) -> Result<(), JsError> {
        let Some(g) = &mut self.geo else { return Ok(()) };
        g.set_sections(&starts, &counts, &flags, &colors);
        self.rebuild_parts()
    }

    /// Per-vertex colors (r, g, b per vertex) replacing the section colors, e.g. a bone-weight
    /// ramp; an empty array goes back to section colors.
    pub fn set_vertex_colors(&mut self, colors: Vec<f32>) -> Result<(), JsError> {
        let Some(g) = &mut self.geo else { return Ok(()) };
        g.vertex_colors = (colors.len() == g.vertex_count() * 3).then_some(colors);
        self.rebuild_parts()
    }

    /// Drops the mesh (a document without one): the next `render` clears the canvas.
    pub fn clear_scene(&mut self) {
        self.clear();
    }

    pub fn set_section_visible(&mut self, section: u32, visible: bool) {
        if let Some(p) = self.parts.get_mut(section as usize) {
            p.visible = visible;
        }
    }

    pub fn set_options(&mut self, options: u32) -> Result<(), JsError> {
        let changed = self.options ^ options;
        self.options = options;
        if changed & (WIREFRAME | NORMALS | TANGENTS | BOUNDS) != 0 {
            self.rebuild_lines(changed)?;
        }
        Ok(())
    }

    /// Triangles (indices into the LOD's triangle list) drawn over the surface in a color;
    /// `layer` keeps overlays apart (1 selection, 2 shadow casters, 3 invalid faces, 10+ grid
    /// submeshes); an empty list removes the layer.
    pub fn set_overlay(&mut self, layer: u32, triangles: Vec<u32>, r: f32, g: f32, b: f32) {
        self.overlays.retain(|(l, _)| *l != layer);
        let Some(geo) = &self.geo else { return };
        if let Some(cpu) = geo.overlay_mesh(&triangles, [r, g, b]) {
            self.overlays.push((layer, three_d::Mesh::new(&self.ctx, &cpu)));
            // Drawn from the highest layer down, so the selection (layer 1) ends on top.
            self.overlays.sort_by_key(|o| std::cmp::Reverse(o.0));
        }
    }

    /// Vertices marked with small crosses drawn over everything.
    pub fn set_marked_vertices(&mut self, vertices: Vec<u32>) -> Result<(), JsError> {
        let pts = self.geo.as_ref().map(|g| g.marks(&vertices, self.orbit.radius * 0.015)).unwrap_or_default();
        self.replace_set("marks", &pts, [1.0, 0.1, 0.6], true)
    }

    /// The edges of the triangles of the index range `start..start + count` as lines in a
    /// color (another mesh drawn over this one, as the comparison does); count 0 removes them.
    pub fn set_edges(&mut self, start: u32, count: u32, r: f32, g: f32, b: f32) -> Result<(), JsError> {
        let pts = self.geo.as_ref().map(|geo| geo.edges(start as usize, count as usize)).unwrap_or_default();
        self.replace_set("edges", &pts, [r, g, b], false)
    }

    /// Line segments (x, y, z of both ends each) in a color, depth-tested: how far vertices
    /// moved, in the comparison; an empty array removes them.
    pub fn set_segments(&mut self, points: Vec<f32>, r: f32, g: f32, b: f32) -> Result<(), JsError> {
        let n = points.len() / 6 * 6;
        self.replace_set("segments", &points[..n], [r, g, b], false)
    }

    /// Boxes as min x, y, z, max x, y, z sextuples in a color: `kind` 0 bone bounds measured
    /// from the weights (dashed), 1 stored bounds, 2 stored bone bounds. Stored boxes are solid
    /// and drawn first, so a measured box on the same edges shows as dashes over them. An empty
    /// array removes that kind.
    pub fn set_boxes(&mut self, kind: u32, boxes: Vec<f32>, r: f32, g: f32, b: f32) -> Result<(), JsError> {
        let mut pts = Vec::new();
        let dashes = if kind == 0 { DASHES } else { 0 };
        for x in boxes.chunks_exact(6) {
            lines::push_box_dashed(&mut pts, [x[0], x[1], x[2]], [x[3], x[4], x[5]], dashes);
        }
        let name = match kind {
            0 => "bone boxes",
            1 => "stored boxes",
            _ => "stored bone boxes",
        };
        self.replace_set(name, &pts, [r, g, b], false)
    }

    pub fn resize(&mut self, width: u32, height: u32) {
        self.width = width.max(1);
        self.height = height.max(1);
    }

    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.orbit.orbit(dx, dy);
    }

    pub fn pan(&mut self, dx: f32, dy: f32) {
        self.orbit.pan(dx, dy, FOV);
    }

    pub fn zoom(&mut self, factor: f32) {
        self.orbit.zoom(factor);
    }

    /// Frames the mesh again from the default direction.
    pub fn reset(&mut self) {
        if let Some((min, max)) = self.geo.as_ref().and_then(|g| g.bounds) {
            self.orbit.frame(min, max, FOV);
        }
    }

    pub fn set_z_up(&mut self, z_up: bool) {
        self.orbit.z_up = z_up;
    }

    /// Camera distance to the orbit target, for the LOD-by-distance preview.
    pub fn distance(&self) -> f32 {
        self.orbit.distance
    }

    pub fn set_distance(&mut self, d: f32) {
        if d.is_finite() && d > 0.0 {
            self.orbit.distance = d;
        }
    }

    /// The triangle under a point (normalized device coordinates, y up), or -1. Hidden
    /// sections are not picked.
    pub fn pick(&self, ndc_x: f32, ndc_y: f32) -> i32 {
        let Some(g) = &self.geo else { return -1 };
        let cam = self.camera();
        let Some((o, d)) = orbit::ray(&cam, ndc_x, ndc_y) else { return -1 };
        let visible: Vec<bool> = self.parts.iter().map(|p| p.visible).collect();
        g.pick(o, d, &visible).map_or(-1, |t| t as i32)
    }

    pub fn render(&mut self) -> Result<(), JsError> {
        let cam = self.camera();
        let eye = self.orbit.eye();
        let cull = if self.options & CULL != 0 { Cull::Back } else { Cull::None };
        let checker = self.options & CHECKER != 0;
        let surface = |p: &scene::Part| material::Surface {
            eye,
            checker,
            cull: if p.two_sided { Cull::None } else { cull },
            overlay: false,
        };
        let over = material::Surface { eye, checker: false, cull: Cull::None, overlay: true };
        let screen = RenderTarget::screen(&self.ctx, self.width, self.height);
        let [r, g, b] = self.background;
        screen.clear(ClearState::color_and_depth(r, g, b, 1.0, 1.0));
        let vp = cam.projection() * cam.view();
        screen
            .write::<std::convert::Infallible>(|| {
                for p in self.parts.iter().filter(|p| p.visible) {
                    p.mesh.render_with_material(&surface(p), &cam, &[]);
                }
                for (_, m) in &self.overlays {
                    m.render_with_material(&over, &cam, &[]);
                }
                // Stored boxes first: measured ones lying on them are dashed and drawn over them.
                let stored = |n: &str| n.starts_with("stored");
                let sets: Vec<&Lines> = self
                    .sets
                    .iter()
                    .filter(|(n, _)| stored(n))
                    .chain(self.sets.iter().filter(|(n, _)| !stored(n)))
                    .map(|(_, l)| l)
                    .collect();
                self.lines.draw(&self.ctx, vp, &sets);
                Ok(())
            })
            .map(|_| ())
            .map_err(err)
    }

    /// Triangles and vertices of the geometry, for the status line and the benchmark.
    pub fn triangle_count(&self) -> u32 {
        self.geo.as_ref().map_or(0, |g| (g.indices.len() / 3) as u32)
    }
}

impl Viewer {
    fn camera(&self) -> Camera {
        self.orbit.camera(Viewport::new_at_origo(self.width, self.height), FOV)
    }

    fn clear(&mut self) {
        self.parts.clear();
        self.overlays.clear();
        for (_, l) in self.sets.drain(..) {
            l.delete(&self.ctx);
        }
        self.geo = None;
    }

    fn rebuild_parts(&mut self) -> Result<(), JsError> {
        let Some(g) = &self.geo else { return Ok(()) };
        let visible: Vec<bool> = self.parts.iter().map(|p| p.visible).collect();
        self.parts = g
            .part_meshes()
            .into_iter()
            .enumerate()
            .map(|(k, (cpu, two_sided))| scene::Part {
                mesh: three_d::Mesh::new(&self.ctx, &cpu),
                visible: visible.get(k).copied().unwrap_or(true),
                two_sided,
            })
            .collect();
        Ok(())
    }

    fn replace_set(&mut self, name: &'static str, pts: &[f32], color: [f32; 3], on_top: bool) -> Result<(), JsError> {
        if let Some(k) = self.sets.iter().position(|(n, _)| *n == name) {
            let (_, l) = self.sets.remove(k);
            l.delete(&self.ctx);
        }
        if pts.is_empty() {
            return Ok(());
        }
        let colors: Vec<f32> = (0..pts.len() / 3).flat_map(|_| color).collect();
        let mut l = Lines::new(&self.ctx, pts, &colors).map_err(err)?;
        l.on_top = on_top;
        self.sets.push((name, l));
        Ok(())
    }

    fn rebuild_lines(&mut self, changed: u32) -> Result<(), JsError> {
        let Some(g) = &self.geo else { return Ok(()) };
        let len = self.orbit.radius * 0.04;
        let mut todo: Vec<(&'static str, Vec<f32>, [f32; 3])> = Vec::new();
        let on = |bit: u32| self.options & bit != 0;
        if changed & WIREFRAME != 0 {
            todo.push(("wireframe", if on(WIREFRAME) { g.wireframe() } else { Vec::new() }, [0.1, 0.1, 0.12]));
        }
        if changed & NORMALS != 0 {
            todo.push(("normals", if on(NORMALS) { g.normal_lines(len) } else { Vec::new() }, [0.0, 0.45, 0.7]));
        }
        if changed & TANGENTS != 0 {
            let (t, b) = if on(TANGENTS) { g.tangent_lines(len) } else { (Vec::new(), Vec::new()) };
            todo.push(("tangents", t, [0.85, 0.2, 0.1]));
            todo.push(("bitangents", b, [0.1, 0.65, 0.2]));
        }
        if changed & BOUNDS != 0 {
            let mut pts = Vec::new();
            if let (true, Some((min, max))) = (on(BOUNDS), g.bounds) {
                lines::push_box_dashed(&mut pts, min, max, DASHES);
            }
            todo.push(("bounds", pts, [0.35, 0.2, 0.7]));
        }
        for (name, pts, color) in todo {
            self.replace_set(name, &pts, color, false)?;
        }
        Ok(())
    }
}
