//! The surface material: a head-light Lambert term that lights both faces alike (decoded
//! winding varies between engines, so shading must not depend on it), over the vertex color
//! (the section's color, or the bone-weight ramp) or a UV checker.

use three_d::*;

pub struct Surface {
    pub eye: Vec3,
    pub checker: bool,
    pub cull: Cull,
    /// Overlays (highlighted triangles) are drawn over the surface at equal depth.
    pub overlay: bool,
}

const SHADER: &str = r#"
uniform vec3 eye;
uniform int checker;
in vec3 pos;
in vec3 nor;
in vec2 uvs;
in vec4 col;
layout (location = 0) out vec4 outColor;
void main() {
    vec3 n = normalize(nor);
    float d = abs(dot(n, normalize(eye - pos)));
    vec3 base = col.rgb;
    if (checker == 1) {
        vec2 c = floor(fract(uvs) * 8.0);
        float k = mod(c.x + c.y, 2.0);
        base = mix(vec3(0.05), vec3(0.8), k) * mix(vec3(1.0), col.rgb, 0.35);
    }
    // Vertex colors arrive linear (three-d decodes sRGB); light in linear, then encode.
    outColor = vec4(pow(base * (0.3 + 0.7 * d), vec3(1.0 / 2.2)), 1.0);
}
"#;

impl Material for Surface {
    fn id(&self) -> EffectMaterialId {
        EffectMaterialId(0x0101)
    }

    fn fragment_shader_source(&self, _lights: &[&dyn Light]) -> String {
        SHADER.to_string()
    }

    fn use_uniforms(&self, program: &Program, _viewer: &dyn Viewer, _lights: &[&dyn Light]) {
        program.use_uniform("eye", self.eye);
        program.use_uniform("checker", if self.checker { 1i32 } else { 0i32 });
    }

    fn render_states(&self) -> RenderStates {
        RenderStates {
            cull: self.cull,
            depth_test: if self.overlay { DepthTest::LessOrEqual } else { DepthTest::Less },
            ..Default::default()
        }
    }

    fn material_type(&self) -> MaterialType {
        MaterialType::Opaque
    }
}
