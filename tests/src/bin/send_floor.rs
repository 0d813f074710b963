//! What one `send` of a frame costs this machine's kernel, with no relay around it: the floor
//! under the relay's fan-out figure (BENCHMARKS.md, "Fan-out").
//!
//! ```sh
//! cargo build --release -p pitchside-tests --bin send-floor
//! taskset -c 0 target/release/send-floor --spectators 10000 --frames 50 --reader-cpu 1
//! ```
//!
//! This process opens N loopback TCP connections to a reader (itself, started again with
//! `--read`, on the other core), then every 100 ms writes one 510-byte WebSocket message to
//! each with a plain non-blocking `send`, from one thread, and prints its own user and
//! system CPU time per send. On loopback a `send` also does the receiving side's TCP work.

use pitchside_tests::bench::{arg, arg_or, proc_cpu_split};
use std::io::Write;
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(port) = arg(&args, "--read") {
        read(&port, arg_or(&args, "--n", 0));
        return;
    }
    let n: usize = arg_or(&args, "--spectators", 10_000);
    let frames: usize = arg_or(&args, "--frames", 50);
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port().to_string();
    let me = std::env::current_exe().expect("own path");
    let mut reader = match arg(&args, "--reader-cpu") {
        Some(cpu) => {
            let mut c = Command::new("taskset");
            c.args(["-c", &cpu]).arg(&me);
            c
        }
        None => Command::new(&me),
    };
    let mut reader = reader
        .args(["--read", &port, "--n", &n.to_string()])
        .stdout(Stdio::null())
        .spawn()
        .expect("start the reader");
    let mut socks = Vec::with_capacity(n);
    for _ in 0..n {
        let (s, _) = listener.accept().expect("accept");
        s.set_nodelay(true).expect("nodelay");
        socket2::SockRef::from(&s)
            .set_send_buffer_size(64 << 10)
            .expect("send buffer");
        s.set_nonblocking(true).expect("non-blocking");
        socks.push(s);
    }
    // A frame as the relay sends one: a 4-byte header and 506 bytes.
    let mut msg = vec![0x82u8, 126, 0x01, 0xfa];
    msg.resize(510, 7);
    let pid = std::process::id();
    let (u0, s0) = proc_cpu_split(pid);
    let (mut sent, mut full) = (0u64, 0u64);
    let t0 = Instant::now();
    for f in 0..frames {
        for s in &mut socks {
            // A partial write would break the stream's framing for a real page; here it only
            // counts as a socket that was full.
            match s.write(&msg) {
                Ok(k) if k == msg.len() => sent += 1,
                _ => full += 1,
            }
        }
        let next = Duration::from_millis(100) * (f as u32 + 1);
        if let Some(wait) = next.checked_sub(t0.elapsed()) {
            std::thread::sleep(wait);
        }
    }
    let (u1, s1) = proc_cpu_split(pid);
    let per = |cpu: f64| cpu / sent.max(1) as f64 * 1e6;
    println!("| connections | sends | socket full | user per send | system per send |");
    println!("|---:|---:|---:|---:|---:|");
    println!(
        "| {n} | {sent} | {full} | {:.2} µs | {:.2} µs |",
        per(u1 - u0),
        per(s1 - s0)
    );
    drop(socks);
    let _ = reader.wait();
}

/// The reading side: N connections, read as they become readable, until all are closed.
fn read(port: &str, n: usize) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let mut tasks = Vec::with_capacity(n);
        for _ in 0..n {
            let s = tokio::net::TcpStream::connect(format!("127.0.0.1:{port}"))
                .await
                .expect("connect");
            tasks.push(tokio::spawn(async move {
                use tokio::io::AsyncReadExt;
                let mut s = s;
                let mut buf = [0u8; 16384];
                while let Ok(k) = s.read(&mut buf).await {
                    if k == 0 {
                        break;
                    }
                }
            }));
        }
        for t in tasks {
            let _ = t.await;
        }
    });
}
