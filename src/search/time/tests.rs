use super::*;

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

fn soft(t: &TimeControl, color: Color, size: usize, played: usize) -> u128 {
    ms(t.budget(color, size, played).soft)
}

#[test]
fn no_settings_uses_the_defaults() {
    let t = TimeControl::new();
    assert_eq!(soft(&t, Color::Black, 9, 0), 2_000);
    assert_eq!(soft(&t, Color::Black, 13, 0), 3_000);
    let b = t.budget(Color::White, 19, 100);
    assert_eq!(b, Budget::fixed(Duration::from_secs(4)));
    let mut t = TimeControl::new();
    t.set_default_per_move(
        Duration::from_millis(500),
        Duration::from_secs(1),
        Duration::from_secs(1),
    );
    assert_eq!(soft(&t, Color::Black, 9, 0), 500);
}

#[test]
fn gtp_special_cases() {
    let mut t = TimeControl::new();
    t.time_settings(600.0, 30.0, 0);
    assert_eq!(t.system(), System::Unlimited);
    t.time_settings(600.0, 0.0, 0);
    assert_eq!(t.system(), System::Absolute);
    t.time_settings(600.0, 30.0, 5);
    assert_eq!(
        t.system(),
        System::Canadian {
            byo_time: Duration::from_secs(30),
            stones: 5
        }
    );
    assert_eq!(t.clock(Color::White).time, Duration::from_secs(600));
}

#[test]
fn expected_moves_grow_under_time_pressure() {
    let s = Duration::from_secs;
    // 9×9: 81 / 2 = 40 at the start, never fewer than 81 / 8 = 10.
    assert_eq!(moves_left(9, 0, s(60), s(60)), 40);
    assert_eq!(moves_left(9, 70, s(60), s(60)), 10);
    assert_eq!(moves_left(19, 0, s(60), s(60)), 180);
    // 15 % of the main time left: half-way to doubling.
    assert_eq!(moves_left(9, 70, s(9), s(60)), 15);
    assert_eq!(moves_left(9, 70, s(0), s(60)), 20);
    // No main time known: no pressure.
    assert_eq!(moves_left(9, 0, s(1), Duration::ZERO), 40);
}

#[test]
fn phases_weigh_the_middle_game_most() {
    assert_eq!(phase_weight(9, 0), 100);
    assert_eq!(phase_weight(9, 13), 130);
    assert_eq!(phase_weight(9, 39), 130);
    assert_eq!(phase_weight(9, 40), 70);
    assert_eq!(phase_weight(19, 59), 100);
    assert_eq!(phase_weight(19, 60), 130);
}

#[test]
fn sudden_death_keeps_a_reserve() {
    let mut t = TimeControl::new();
    t.time_settings(5.0, 0.0, 0);
    // 9×9, 5 s: reserve 0.6 s (12 %), 40 moves at 10 ms lag each:
    // 4 s to spread, 100 ms a move, hard limit 3 targets.
    let b = t.budget(Color::Black, 9, 0);
    assert_eq!((ms(b.soft), ms(b.hard)), (100, 300));
    // Middle game (weight 1.3), 3 s left, 30 moves expected.
    t.time_left(Color::Black, 3.0, 0);
    let b = t.budget(Color::Black, 9, 20);
    assert_eq!(ms(b.soft), (3_000 - 600 - 300) / 30 * 13 / 10);
    // Hard limit: three targets, but no more than a fifth of the
    // spendable time.
    assert_eq!(ms(b.hard), 3 * ms(b.soft));
    t.time_settings(60.0, 0.0, 0);
    t.time_left(Color::Black, 12.0, 0);
    let b = t.budget(Color::Black, 9, 70);
    // 10 moves at least, and 12 s is under 30 % of the main time:
    // pressure 1/3.
    let n = moves_left(9, 70, Duration::from_secs(12), Duration::from_secs(60));
    assert_eq!(n, 13);
    let spendable = 12_000 - 7_200 - 10 * 13;
    assert_eq!(ms(b.soft), (spendable / 13) as u128 * 7 / 10);
    // Within the reserve: a quarter of an even share of what is left.
    t.time_left(Color::Black, 2.0, 0);
    let b = t.budget(Color::Black, 9, 70);
    assert_eq!(b.soft, b.hard);
    assert_eq!(ms(b.soft), 2_000 / (4 * 19));
    t.time_left(Color::Black, 0.0, 0);
    assert_eq!(t.budget(Color::Black, 9, 70), Budget::fixed(FLOOR));
}

/// Plays whole games against a fake clock, the way `tesuji match` runs
/// one: before every move the engine is told the time left rounded
/// down to whole seconds; every move then runs to its hard limit and
/// costs `lag` on top (worst case). The clock must never run out.
fn worst_case_game(size: usize, main: f64, ours: usize, lag: Duration) -> Duration {
    let mut t = TimeControl::new();
    t.time_settings(main, 0.0, 0);
    let mut left = Duration::from_secs_f64(main);
    for i in 0..ours {
        t.time_left(Color::Black, left.as_secs() as f64, 0);
        let used = t.budget(Color::Black, size, 2 * i).hard + lag;
        assert!(used < left, "{size}x{size}: out of time at move {i}");
        left -= used;
    }
    left
}

#[test]
fn sudden_death_survives_long_games_at_worst() {
    let lag = Duration::from_millis(3);
    // 9×9 and 19×19 at 5 s; games of 200 and 400 moves per side (far
    // longer than any real game), every move at its hard limit.
    assert!(worst_case_game(9, 5.0, 200, lag) > Duration::ZERO);
    assert!(worst_case_game(19, 5.0, 400, lag) > Duration::ZERO);
    assert!(worst_case_game(9, 60.0, 200, lag) > Duration::ZERO);
    assert!(worst_case_game(19, 600.0, 400, lag) > Duration::ZERO);
}

#[test]
fn planned_use_leaves_the_reserve() {
    // Every move at its target, for as many moves as the plan expects
    // at the start: at least the reserve (12 %) is left.
    for (size, main) in [(9, 5.0), (9, 60.0), (13, 30.0), (19, 5.0), (19, 600.0)] {
        let mut t = TimeControl::new();
        t.time_settings(main, 0.0, 0);
        let mut left = Duration::from_secs_f64(main);
        let n = size * size / 2;
        for i in 0..n {
            t.time_left(Color::Black, left.as_secs_f64(), 0);
            left -= t.budget(Color::Black, size, 2 * i).soft;
        }
        let reserve = main * RESERVE_PERCENT as f64 / 100.0;
        assert!(
            left.as_secs_f64() >= reserve,
            "{size}x{size} {main} s: {left:?} left"
        );
    }
}

#[test]
fn canadian_byo_yomi_divides_the_period() {
    let mut t = TimeControl::new();
    t.time_settings(0.0, 60.0, 10);
    // No main time: straight into byo-yomi, 10 stones in 60 s, a tenth
    // kept back: 5.4 s a stone, up to 10.8 s.
    assert_eq!(t.clock(Color::Black).stones, 10);
    let b = t.budget(Color::Black, 19, 0);
    assert_eq!((ms(b.soft), ms(b.hard)), (5_400, 10_800));
    // Last two stones of a period with 10 s left: 0.5 s margin (0.3 s
    // plus 10 ms a stone is less).
    t.time_left(Color::Black, 10.0, 2);
    let b = t.budget(Color::Black, 19, 50);
    assert_eq!((ms(b.soft), ms(b.hard)), (4_500, 9_000 - 2_250));
    // The last stone may use the whole usable period.
    t.time_left(Color::Black, 10.0, 1);
    assert_eq!(t.budget(Color::Black, 19, 50), Budget::fixed(ms_d(9_000)));
    // In main time: share of the main time plus a quarter of a
    // byo-yomi move's share (54 s / 10 stones).
    t.time_settings(600.0, 60.0, 10);
    // 19×19: 180 moves expected; reserve 72 s, lag 1.8 s.
    let b = t.budget(Color::Black, 19, 0);
    let spendable = 600_000 - 72_000 - 1_800;
    assert_eq!(ms(b.soft), (spendable / 180) as u128 + 5_400 / 4);
}

fn ms_d(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn japanese_byo_yomi_keeps_within_a_period() {
    let mut t = TimeControl::new();
    t.kgs_byoyomi(0.0, 30.0, 5);
    assert_eq!(
        t.budget(Color::White, 19, 0),
        Budget {
            soft: ms_d(13_500),
            hard: ms_d(27_000)
        }
    );
    t.time_left(Color::White, 12.0, 3);
    assert_eq!(ms(t.budget(Color::White, 19, 0).hard), 12_000 - 1_200);
    t.kgs_byoyomi(0.0, 0.0, 5);
    assert_eq!(t.system(), System::Absolute);
}

fn state(elapsed: u64, last: u64, stable: u32) -> IterationState {
    IterationState {
        elapsed: ms_d(elapsed),
        last: ms_d(last),
        growth: 3.0,
        stable,
        root_moves: 50,
        depth: 4,
    }
}

#[test]
fn iterations_start_only_when_they_can_finish() {
    let b = Budget {
        soft: ms_d(100),
        hard: ms_d(300),
    };
    // Unstable: may run past the target, not past the hard limit.
    assert!(start_next_iteration(&b, &state(40, 20, 1)));
    assert!(start_next_iteration(&b, &state(90, 60, 1)), "ends at 270");
    assert!(!start_next_iteration(&b, &state(90, 80, 1)), "ends at 330");
    assert!(
        !start_next_iteration(&b, &state(100, 10, 1)),
        "target reached"
    );
    // Stable: only if it should end within the target.
    assert!(start_next_iteration(&b, &state(40, 20, 3)), "ends at 100");
    assert!(!start_next_iteration(&b, &state(40, 21, 3)), "ends at 103");
    // The pass and a single move: depth 2 decides.
    let mut forced = state(1, 1, 1);
    forced.root_moves = 2;
    forced.depth = 1;
    assert!(start_next_iteration(&b, &forced));
    forced.depth = 2;
    assert!(!start_next_iteration(&b, &forced));
}

/// A clock in byo-yomi: `secs` left in the period, `stones` to play.
fn byo_yomi(secs: u64, stones: u32) -> Clock {
    Clock {
        time: Duration::from_secs(secs),
        stones,
    }
}

#[test]
fn spend_tracks_the_clock_without_time_left() {
    let mut t = TimeControl::new();
    t.time_settings(10.0, 30.0, 2);
    t.spend(Color::Black, Duration::from_secs(4));
    assert_eq!(t.clock(Color::Black).time, Duration::from_secs(6));
    // Overrun: 2 s into byo-yomi, one of two stones played.
    t.spend(Color::Black, Duration::from_secs(8));
    assert_eq!(t.clock(Color::Black), byo_yomi(28, 1));
    // The second stone completes the period: a fresh one starts.
    t.spend(Color::Black, Duration::from_secs(5));
    assert_eq!(t.clock(Color::Black), byo_yomi(30, 2));
    assert_eq!(t.clock(Color::White).time, Duration::from_secs(10));
}

#[test]
fn kgs_none_and_canadian() {
    let mut t = TimeControl::new();
    t.kgs_canadian(60.0, 0.0, 0);
    assert_eq!(t.system(), System::Absolute);
    t.kgs_none();
    assert_eq!(t.system(), System::Unlimited);
}
