//! Free port triples for the games of a run. A field's ports can be taken: by a program of
//! the machine's, by a game of another run (two batches, or two Slurm array tasks sent to the
//! same node). A game takes its field's triple when it is free and otherwise the next free
//! one above it in the field's thousand, so that it plays rather than fails.
//!
//! "Free" is two tests: no socket holds any of the three ports now, and no other runner on
//! the machine has claimed the triple (a lock file in the temporary folder, held while the
//! game plays; the kernel lets go of it when the runner dies). The lock closes the window
//! between one runner's test and its server's bind, in which another runner's test would
//! also pass.

use pitchside_competitions::batch::{Ports, PORT_STEP};
use std::fs::File;
use std::net::{Ipv4Addr, UdpSocket};
use std::path::PathBuf;

/// A triple claimed for one game; dropping it lets other runners take it.
#[derive(Debug)]
pub struct Claim {
    pub ports: Ports,
    _lock: File,
}

/// The first free triple from `wanted` up, three ports at a time, below the next field's
/// ports; `Err` says that none was free.
pub fn claim(wanted: Ports) -> Result<Claim, String> {
    let last = (u32::from(wanted.player) + u32::from(PORT_STEP) - 3).min(65533);
    let mut player = u32::from(wanted.player);
    while player <= last {
        if let Some(ports) = triple(player) {
            if let Some(lock) = lock(ports) {
                if bindable(ports) {
                    return Ok(Claim { ports, _lock: lock });
                }
            }
        }
        player += 3;
    }
    Err(format!(
        "no free ports from {} to {}: every triple is in use",
        wanted.player, last
    ))
}

fn triple(player: u32) -> Option<Ports> {
    let player = u16::try_from(player).ok()?;
    Some(Ports {
        player,
        coach: player.checked_add(1)?,
        online_coach: player.checked_add(2)?,
    })
}

/// The triple's lock file, held; `None` when another runner holds it (or no lock file can be
/// made, where the bind test alone has to do).
fn lock(ports: Ports) -> Option<File> {
    let path = lock_path(ports.player);
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
    {
        Ok(file) => file,
        // A folder a runner cannot write to (another user's lock file): the bind test decides.
        Err(_) => return std::fs::File::open("/dev/null").ok(),
    };
    use rustix::fs::{flock, FlockOperation};
    flock(&file, FlockOperation::NonBlockingLockExclusive)
        .ok()
        .map(|()| file)
}

fn lock_path(player: u16) -> PathBuf {
    std::env::temp_dir().join(format!("pitchside-play-port-{player}.lock"))
}

/// Whether the server could bind the three ports now (as rcssserver does, on every address).
fn bindable(ports: Ports) -> bool {
    let bound: Vec<_> = [ports.player, ports.coach, ports.online_coach]
        .iter()
        .map(|&p| UdpSocket::bind((Ipv4Addr::UNSPECIFIED, p)))
        .collect();
    bound.iter().all(Result::is_ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(player: u16) -> Ports {
        Ports {
            player,
            coach: player + 1,
            online_coach: player + 2,
        }
    }

    #[test]
    fn a_free_field_keeps_its_ports_and_a_claimed_one_moves_up_a_triple() {
        let first = claim(field(25500)).expect("a free triple");
        assert_eq!(first.ports, field(25500));
        // Claimed by this runner (as another would have): the next game takes the next triple.
        let second = claim(field(25500)).expect("the next triple");
        assert_eq!(second.ports, field(25503));
        drop(first);
        assert_eq!(claim(field(25500)).expect("free again").ports, field(25500));
    }

    #[test]
    fn a_port_another_program_holds_is_stepped_over() {
        let holder = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 25601)).expect("hold a port");
        let got = claim(field(25600)).expect("a free triple");
        assert_eq!(got.ports, field(25603), "25601 is the coach port of 25600");
        drop(holder);
    }

    #[test]
    fn a_field_with_no_free_triple_says_so() {
        // 65533 is the last whole triple: once claimed, nothing is left above it.
        let last = claim(field(65533)).expect("the last triple");
        let err = claim(field(65533)).expect_err("no triple left");
        assert!(err.contains("no free ports from 65533"), "{err}");
        drop(last);
    }
}
