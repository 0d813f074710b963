//! The little vector algebra the cameras need, in `f64`, with the conventions of OpenGL (and of
//! the renderer): a right-handed view space looking down `-z`, clip space from -1 to 1.

pub type V3 = [f64; 3];

pub fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn scale(a: V3, k: f64) -> V3 {
    [a[0] * k, a[1] * k, a[2] * k]
}

pub fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn length(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// `a` scaled to length 1 (`a` itself when it has none).
pub fn normalize(a: V3) -> V3 {
    let l = length(a);
    if l > 1e-12 {
        scale(a, 1.0 / l)
    } else {
        a
    }
}

/// The camera's axes: right, up and backward (view space's `x`, `y`, `z`).
pub fn basis(eye: V3, target: V3, up: V3) -> (V3, V3, V3) {
    let back = normalize(sub(eye, target));
    let right = normalize(cross(up, back));
    let true_up = cross(back, right);
    (right, true_up, back)
}

/// A critically damped spring toward a moving target (no overshoot, no oscillation): the
/// camera's aim and zoom follow play through it, so that a ball that changes direction every
/// cycle moves the picture smoothly. `time` is roughly how long it takes to catch up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spring {
    pub value: f64,
    pub speed: f64,
}

impl Spring {
    pub fn at(value: f64) -> Spring {
        Spring { value, speed: 0.0 }
    }

    /// Moves `dt` seconds toward `target`.
    pub fn step(&mut self, target: f64, time: f64, dt: f64) -> f64 {
        let omega = 2.0 / time.max(1e-3);
        let x = omega * dt.max(0.0);
        // The exponential's Padé approximation: exact enough for dt up to a few tenths.
        let decay = 1.0 / (1.0 + x + 0.48 * x * x + 0.235 * x * x * x);
        let change = self.value - target;
        let pull = (self.speed + omega * change) * dt;
        self.speed = (self.speed - omega * pull) * decay;
        self.value = target + (change + pull) * decay;
        self.value
    }

    /// Jumps to `value`, at rest.
    pub fn jump(&mut self, value: f64) {
        *self = Spring::at(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spring_reaches_its_target_without_overshooting() {
        let mut s = Spring::at(0.0);
        let mut last = 0.0;
        for _ in 0..300 {
            let v = s.step(10.0, 0.5, 1.0 / 60.0);
            assert!(v >= last - 1e-12 && v <= 10.0 + 1e-9, "{v} after {last}");
            last = v;
        }
        assert!((last - 10.0).abs() < 0.01, "{last}");
    }

    #[test]
    fn a_camera_basis_is_right_handed_and_orthonormal() {
        let (r, u, b) = basis([0.0, 20.0, 60.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        assert!((dot(r, u)).abs() < 1e-12 && (dot(r, b)).abs() < 1e-12);
        assert!((length(cross(r, u)) - 1.0).abs() < 1e-12);
        assert!(dot(cross(r, u), b) > 0.99);
        // From the stand at +z, right on screen is +x.
        assert!(r[0] > 0.99);
    }
}
