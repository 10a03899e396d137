//! The orbit camera: a target, a distance, yaw and pitch about a chosen up axis; and the ray
//! under a point of the canvas for picking.

use three_d::*;

pub struct Orbit {
    pub target: Vec3,
    pub distance: f32,
    pub yaw: f32,
    pub pitch: f32,
    /// The model's up axis: Y (glTF, Frostbite) or Z.
    pub z_up: bool,
    /// The framed radius, which bounds zoom and sets the clip planes.
    pub radius: f32,
}

impl Orbit {
    pub fn new() -> Self {
        Orbit { target: vec3(0.0, 0.0, 0.0), distance: 3.0, yaw: 0.6, pitch: 0.45, z_up: false, radius: 1.0 }
    }

    pub fn frame(&mut self, min: [f32; 3], max: [f32; 3], fov_y: f32) {
        self.target = vec3((min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0, (min[2] + max[2]) / 2.0);
        let r = 0.5 * ((max[0] - min[0]).powi(2) + (max[1] - min[1]).powi(2) + (max[2] - min[2]).powi(2)).sqrt();
        self.radius = if r.is_finite() && r > 1e-6 { r } else { 1.0 };
        self.distance = self.radius / (fov_y / 2.0).sin() * 0.95;
        self.yaw = 0.6;
        self.pitch = 0.45;
    }

    pub fn up(&self) -> Vec3 {
        if self.z_up {
            vec3(0.0, 0.0, 1.0)
        } else {
            vec3(0.0, 1.0, 0.0)
        }
    }

    /// The eye position: yaw about the up axis, pitch towards it.
    pub fn eye(&self) -> Vec3 {
        let (cp, sp, cy, sy) = (self.pitch.cos(), self.pitch.sin(), self.yaw.cos(), self.yaw.sin());
        let off = if self.z_up { vec3(cp * sy, -cp * cy, sp) } else { vec3(cp * sy, sp, cp * cy) };
        self.target + off * self.distance
    }

    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx;
        self.pitch = (self.pitch + dy).clamp(-1.55, 1.55);
    }

    /// Moves the target in the view plane by a fraction of the visible height.
    pub fn pan(&mut self, dx: f32, dy: f32, fov_y: f32) {
        let eye = self.eye();
        let fwd = (self.target - eye).normalize();
        let right = fwd.cross(self.up()).normalize();
        let up = right.cross(fwd);
        let h = 2.0 * self.distance * (fov_y / 2.0).tan();
        self.target += right * (-dx * h) + up * (dy * h);
    }

    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).clamp(self.radius * 1e-3, self.radius * 1e3);
        }
    }

    pub fn camera(&self, viewport: Viewport, fov_y: f32) -> Camera {
        let near = (self.distance - self.radius * 2.0).max(self.distance * 1e-3).max(1e-5);
        let far = self.distance + self.radius * 4.0;
        Camera::new_perspective(viewport, self.eye(), self.target, self.up(), radians(fov_y), near, far)
    }
}

/// The ray through normalized device coordinates (x, y in -1..1, y up).
pub fn ray(camera: &Camera, ndc_x: f32, ndc_y: f32) -> Option<(Vec3, Vec3)> {
    let inv = (camera.projection() * camera.view()).invert()?;
    let a = inv * vec4(ndc_x, ndc_y, -1.0, 1.0);
    let b = inv * vec4(ndc_x, ndc_y, 1.0, 1.0);
    let (a, b) = (a.truncate() / a.w, b.truncate() / b.w);
    Some((a, (b - a).normalize()))
}

/// Möller–Trumbore: the distance along the ray to the triangle, either face.
pub fn hit(o: Vec3, d: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Option<f32> {
    let (e1, e2) = (b - a, c - a);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let t0 = o - a;
    let u = t0.dot(p) / det;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = t0.cross(e1);
    let v = d.dot(q) / det;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) / det;
    (t > 0.0).then_some(t)
}
