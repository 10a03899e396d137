//! Line sets (wireframe, normals, tangent frames, boxes, vertex marks) drawn with GL_LINES
//! straight through the glow context three-d wraps: three-d itself only draws triangles.

use three_d::context::{self as gl, HasContext};
use three_d::{Context, Mat4};

const VS: &str = "#version 300 es
uniform mat4 vp;
in vec3 p;
in vec3 c;
out vec3 vc;
void main() {
  gl_Position = vp * vec4(p, 1.0);
  // A small pull towards the eye, so edges lying on the surface are not half hidden by it.
  gl_Position.z -= 0.0008 * gl_Position.w;
  vc = c;
}";
const FS: &str = "#version 300 es
precision mediump float;
in vec3 vc;
out vec4 o;
void main() { o = vec4(vc, 1.0); }";

pub struct LineProgram {
    program: gl::Program,
}

/// One set of line segments: two points per segment, one color per point.
pub struct Lines {
    vao: gl::VertexArray,
    buf: gl::Buffer,
    count: i32,
    /// Drawn over everything (vertex marks) instead of depth-tested.
    pub on_top: bool,
}

impl LineProgram {
    pub fn new(ctx: &Context) -> Result<Self, String> {
        unsafe {
            let program = ctx.create_program()?;
            for (kind, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
                let s = ctx.create_shader(kind)?;
                ctx.shader_source(s, src);
                ctx.compile_shader(s);
                if !ctx.get_shader_compile_status(s) {
                    return Err(ctx.get_shader_info_log(s));
                }
                ctx.attach_shader(program, s);
            }
            ctx.bind_attrib_location(program, 0, "p");
            ctx.bind_attrib_location(program, 1, "c");
            ctx.link_program(program);
            if !ctx.get_program_link_status(program) {
                return Err(ctx.get_program_info_log(program));
            }
            Ok(LineProgram { program })
        }
    }

    pub fn draw(&self, ctx: &Context, vp: Mat4, sets: &[&Lines]) {
        unsafe {
            ctx.use_program(Some(self.program));
            let m: &[f32; 16] = vp.as_ref();
            let loc = ctx.get_uniform_location(self.program, "vp");
            ctx.uniform_matrix_4_f32_slice(loc.as_ref(), false, m);
            ctx.disable(gl::CULL_FACE);
            ctx.disable(gl::BLEND);
            ctx.depth_mask(true);
            for l in sets.iter().filter(|l| l.count > 0) {
                if l.on_top {
                    ctx.disable(gl::DEPTH_TEST);
                } else {
                    ctx.enable(gl::DEPTH_TEST);
                    ctx.depth_func(gl::LEQUAL);
                }
                ctx.bind_vertex_array(Some(l.vao));
                ctx.draw_arrays(gl::LINES, 0, l.count);
            }
            ctx.bind_vertex_array(None);
            ctx.use_program(None);
            ctx.enable(gl::DEPTH_TEST);
            ctx.depth_func(gl::LESS);
        }
    }
}

impl Lines {
    /// `points` are x, y, z per point, `colors` r, g, b per point.
    pub fn new(ctx: &Context, points: &[f32], colors: &[f32]) -> Result<Self, String> {
        let n = (points.len() / 3).min(colors.len() / 3);
        let mut data = Vec::with_capacity(n * 6);
        for k in 0..n {
            data.extend_from_slice(&points[k * 3..k * 3 + 3]);
            data.extend_from_slice(&colors[k * 3..k * 3 + 3]);
        }
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        unsafe {
            let vao = ctx.create_vertex_array()?;
            let buf = ctx.create_buffer()?;
            ctx.bind_vertex_array(Some(vao));
            ctx.bind_buffer(gl::ARRAY_BUFFER, Some(buf));
            ctx.buffer_data_u8_slice(gl::ARRAY_BUFFER, &bytes, gl::STATIC_DRAW);
            ctx.enable_vertex_attrib_array(0);
            ctx.vertex_attrib_pointer_f32(0, 3, gl::FLOAT, false, 24, 0);
            ctx.enable_vertex_attrib_array(1);
            ctx.vertex_attrib_pointer_f32(1, 3, gl::FLOAT, false, 24, 12);
            ctx.bind_vertex_array(None);
            ctx.bind_buffer(gl::ARRAY_BUFFER, None);
            Ok(Lines { vao, buf, count: (n - n % 2) as i32, on_top: false })
        }
    }

    pub fn delete(&self, ctx: &Context) {
        unsafe {
            ctx.delete_vertex_array(self.vao);
            ctx.delete_buffer(self.buf);
        }
    }
}

/// The twelve edges of a box, appended as segment end points; with `dashes` > 0 each edge is drawn as that many dashes (half
/// its length drawn), so a measured box stays visible where a stored one lies on it.
pub fn push_box_dashed(out: &mut Vec<f32>, min: [f32; 3], max: [f32; 3], dashes: u32) {
    let c = |i: usize| {
        [
            if i & 1 == 0 { min[0] } else { max[0] },
            if i & 2 == 0 { min[1] } else { max[1] },
            if i & 4 == 0 { min[2] } else { max[2] },
        ]
    };
    for (a, b) in [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)] {
        let (p, q) = (c(a), c(b));
        if dashes == 0 {
            out.extend_from_slice(&p);
            out.extend_from_slice(&q);
            continue;
        }
        let at = |t: f32| [0, 1, 2].map(|k| p[k] + (q[k] - p[k]) * t);
        let n = (2 * dashes) as f32;
        for d in 0..dashes {
            out.extend_from_slice(&at(2.0 * d as f32 / n));
            out.extend_from_slice(&at((2.0 * d as f32 + 1.0) / n));
        }
    }
}
