//! Mounts the page: the lobby or the monitor.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(pitchside_web::Root);
}
