//! `pitchside-relay`: command line in, [`relay::run`] out.

use anyhow::Context;
use clap::Parser;
use relay::config::Cli;

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pitchside-relay: {}", said_once(&e));
            std::process::ExitCode::FAILURE
        }
    }
}

/// The error with each cause its message does not already say. The libraries' errors name
/// their cause in their own message (it is what a log line or an HTTP answer shows) and also
/// keep it as their source: printed as a chain, every cause would be said twice.
fn said_once(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

fn run() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let settings = Cli::parse().settings()?;
    raise_open_files(settings.max_spectators);
    let listen = settings.listen;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| format!("cannot listen on {listen}"))?;
        let addr = listener.local_addr()?;
        let scheme = if settings.tls.is_some() {
            "https"
        } else {
            "http"
        };
        for m in &settings.matches {
            tracing::info!("match {} at {scheme}://{addr}/m/{}", m.name, m.name);
        }
        tracing::info!("pitchside relay at {scheme}://{addr}");
        relay::run(listener, settings, shutdown_signal()).await?;
        Ok(())
    })
}

/// Every spectator is an open socket: the usual soft limit of 1024 files would refuse them
/// long before `--max-spectators`. The soft limit is raised to the hard one (which needs no
/// privilege), and a warning says when even that is too low.
fn raise_open_files(max_spectators: usize) {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) if n < max_spectators as u64 + 64 => tracing::warn!(
            "at most {n} open files: fewer than --max-spectators {max_spectators}; raise the hard limit (ulimit -Hn, LimitNOFILE=)"
        ),
        Ok(_) => {}
        Err(e) => tracing::warn!("cannot raise the open-files limit: {e}"),
    }
}

/// Ctrl-C or SIGTERM (what `systemctl stop`, `docker stop` and `kill` send).
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("Ctrl-C: shutting down"),
        () = term => tracing::info!("SIGTERM: shutting down"),
    }
}
