//! Evaluating a child without searching it: the first numbers of a move
//! in a new frame (exact when the game ends or the capture is immediate,
//! the df-pn+ heuristic otherwise), and what a table probe for it needs.
//!
//! Playing a move and taking it back costs more than everything else an
//! expansion does, so most moves are evaluated from the board as it is:
//! the pass, and every stone that captures nothing. After such a move no
//! ko ban holds, only the mover's stone is new, and the target either
//! keeps its liberties, loses the one the attacker fills, or (the
//! defender's stone joining it) becomes the stone's block. Its key and
//! whether the line is cut come from the rules without playing
//! ([`CaptureGame::after_stone`], [`CaptureGame::after_pass`]). Captures
//! are played. Debug builds check every shortcut against playing.
//!
//! [`CaptureGame::after_stone`]: crate::tactics::rules::CaptureGame::after_stone
//! [`CaptureGame::after_pass`]: crate::tactics::rules::CaptureGame::after_pass

use super::ghi::{self, Bound};
use super::numbers::{heuristic, Child, Features, Value, NO_MOVE};
use super::search::{Anc, Pending, Search};
use super::tt::{KO, PATH_DEP};
use crate::go::board::{Board, Point, EMPTY, PASS};
use crate::go::Color;
use crate::tactics::zone::Zone;

/// A child's first value: the child, and what its table probe needs
/// (`None` when the child is decided already).
pub type Init = (Child, Option<Pending>);

/// What evaluating the children of a node needs to know about the node,
/// found once per expansion.
#[derive(Clone, Copy, Debug)]
pub struct Here {
    /// The opponent's replies after a move (the empty points left, and the
    /// pass), for the heuristic.
    pub replies: u32,
    /// The target's liberties.
    pub libs: Zone,
    /// The heads of the attacker's blocks in atari next to the target:
    /// capturing one gives the target liberties.
    pub weak: Zone,
    /// The target's liberty count ([`Search::target_libs`]), asked by
    /// every child's evaluation.
    pub libs0: usize,
    /// The node's entry on the ancestor stack (the default at the root).
    pub top: Anc,
    /// The game goes on and the path has room for a move: what a child
    /// evaluated without playing needs. Kept here, as the rest, because
    /// the node's state is the same whenever its children are evaluated
    /// (every move searched or tried below it is taken back).
    pub open: bool,
}

impl Here {
    /// A blank, for [`Search::fill_here`] to write over.
    pub const EMPTY: Here = Here {
        replies: 0,
        libs: Zone::new(),
        weak: Zone::new(),
        libs0: 0,
        top: Anc {
            counts: [0; 2],
            target: 0,
            passed: false,
            class: 0,
        },
        open: false,
    };
}

impl Search<'_> {
    /// What the children of the current node need, written into `h`: the
    /// target's liberties, and a walk over the attacker's blocks in atari
    /// (from the board's set of them, usually none or a few small ones)
    /// for those next to the target. The liberties are `libs` when the
    /// caller knows them (see [`Search::child_libs`]), else found by one
    /// walk over the target's stones ([`Search::target_liberties`]).
    /// Filled in place: a `Here` is some two hundred bytes, and returning
    /// it into the frame would copy it at every node. Inlined into its
    /// callers, where the frame's blank `here` was just written: the
    /// compiler drops the blank's stores that these overwrite.
    #[inline(always)]
    pub(super) fn fill_here(&self, libs: Option<Zone>, h: &mut Here) {
        let b = self.game.board();
        let stones = self
            .anc
            .last()
            .map_or(0, |a| a.counts[0] as u32 + a.counts[1] as u32);
        h.libs = match libs {
            Some(l) => {
                debug_assert_eq!(l, self.target_liberties(), "liberties from the parent");
                l
            }
            None => self.target_liberties(),
        };
        let weak = &mut h.weak;
        *weak = Zone::new();
        if b.color_at(self.target) == Some(self.defender()) {
            let t = b.block(self.target);
            let defender = self.defender().cell();
            b.for_each_atari_block(self.attacker, |h| {
                // Stopping at the first stone next to the target.
                let mut next_to = false;
                b.for_each_stone_while(h, |s| {
                    for n in Board::neighbors(s) {
                        next_to |= b.cell(n) == defender && b.block(n) == t;
                    }
                    !next_to
                });
                if next_to {
                    weak.insert(h);
                }
            });
        }
        if cfg!(debug_assertions) && b.color_at(self.target) == Some(self.defender()) {
            // As one walk over the target finds them (none while the target
            // is off the board, a retake pending).
            let mut want = Zone::new();
            b.for_each_stone(self.target, |q| {
                for n in Board::neighbors(q) {
                    if b.color_at(n) == Some(self.attacker) && b.libs(n) == 1 {
                        want.insert(b.block(n));
                    }
                }
            });
            assert_eq!(h.weak, want, "attacker blocks in atari next to the target");
        }
        let g = &self.game;
        h.replies = (b.size() * b.size()) as u32 - stones;
        h.libs0 = self.target_libs();
        h.top = self.anc.last().copied().unwrap_or_default();
        h.open = g.has_room() && g.winner().is_none();
    }

    /// The target's liberties: one walk over its stones. The target may be
    /// a large block, so the walk only marks the empty neighbours, without
    /// a branch.
    pub(super) fn target_liberties(&self) -> Zone {
        let b = self.game.board();
        let mut libs = Zone::new();
        b.for_each_stone(self.target, |q| {
            for n in Board::neighbors(q) {
                libs.insert_if(n, b.is_empty(n));
            }
        });
        libs
    }

    /// The target's liberties at the current node, which `mover` has just
    /// reached by playing `m`, from `parent`, the target's liberties
    /// before the move, when the move cannot have changed them but by
    /// filling `m`; `None` otherwise (the walk of
    /// [`Search::target_liberties`] is needed). The liberties are the
    /// empty neighbours of the target's stones, and with the target still
    /// on the board (a node that is expanded):
    ///
    /// * a pass changes no point;
    /// * an attacker's stone fills `m` and leaves the target's stones as
    ///   they were; the stones it captures are the defender's, in blocks
    ///   other than the target, so none is next to the target (it would
    ///   belong to the target): they free no liberty of it;
    /// * a defender's stone that is not on a liberty touches no stone of
    ///   the target, so it joins no block to the target, and `m` was no
    ///   liberty; it changes the liberties only by what it captures.
    ///
    /// What remains, a defender's stone on a liberty (the target grows) or
    /// one that captures, is left to the walk.
    pub(super) fn child_libs(&self, parent: &Zone, m: Point, mover: Color) -> Option<Zone> {
        if m == PASS {
            return Some(*parent);
        }
        if mover == self.attacker {
            let mut libs = *parent;
            libs.remove(m);
            return Some(libs);
        }
        let n = self.anc.len();
        let a = self.attacker.index();
        let captured = n >= 2 && self.anc[n - 1].counts[a] < self.anc[n - 2].counts[a];
        (!parent.contains(m) && !captured).then_some(*parent)
    }

    /// Evaluates the child of move `m` without searching it: exactly when
    /// the game is over or the capture is immediate, heuristically
    /// otherwise. Also returns what a table probe for the child needs (its
    /// key and its entry on the ancestor stack), when the child is not
    /// decided already. `None` when the move is illegal or not part of the
    /// search (λ¹ restriction). The same answer as
    /// [`Search::init_played_child`].
    pub(super) fn init_child(&mut self, m: Point, here: &Here) -> Option<Init> {
        // Each shortcut plays the move itself where it cannot do without
        // (`init_played_child`), so that its answer is built where the
        // caller wants it, not in a temporary copied there.
        let r = if m == PASS {
            self.init_pass_child(here)
        } else {
            self.init_stone_child(m, here)
        };
        if cfg!(debug_assertions) {
            // The shortcut must agree with playing the move (trivially
            // where it played it), except that it leaves the life and race
            // rules of `exact` to the child's own visit (`mid` applies them
            // there): where playing finds the child decided and the
            // shortcut gives it a heuristic value to be searched, the
            // shortcut is only later, not wrong.
            let generated = self.generated;
            let played = self.init_played_child(m, here.replies);
            self.generated = generated;
            let deferred = matches!((&r, &played), (Some((_, Some(_))), Some((_, None))));
            // The shortcut may flag `KO` where playing finds a flagless
            // win: it flags every capture of a lone target that may be a
            // ko capture after some defender move (`target_lib_flags`),
            // and a flag only weakens the claim.
            let widened = match (&r, &played) {
                (Some((c, None)), Some((p, None))) if c.flags & KO != 0 => {
                    let mut p = *p;
                    p.flags |= KO;
                    format!("{c:?}") == format!("{p:?}")
                }
                _ => false,
            };
            if !deferred && !widened {
                assert_eq!(format!("{r:?}"), format!("{played:?}"), "child of {m}");
            }
        }
        r
    }

    /// [`Search::init_child`] by playing `m` and taking it back.
    pub(super) fn init_played_child(&mut self, m: Point, replies: u32) -> Option<Init> {
        let mover = self.game.to_move();
        let att = mover == self.attacker;
        let libs0 = self.target_libs();
        let prisoners0 = self.game.board().prisoners(mover);
        if !self.play(m) {
            return None;
        }
        self.generated += 1;
        let b = self.game.board();
        let target_on = b.color_at(self.target) == Some(self.defender());
        let libs1 = if target_on { b.libs(self.target) } else { 0 };
        let mut child = Child::fresh(m);
        let mut pending = None;
        let keep = !(self.ladder && att && target_on && libs1 != 1);
        if keep {
            let me = self.anc.last().copied().unwrap_or_default();
            if let Some(v) = self.exact() {
                let terminal = self.game.winner().is_some();
                child.set(
                    v,
                    if terminal {
                        Bound::NONE
                    } else {
                        Bound::at(&me)
                    },
                );
            } else {
                let captured = b.prisoners(mover) - prisoners0;
                let (phi, delta) = self.first_numbers(&Features {
                    att,
                    libs0,
                    libs1,
                    captured,
                    pass: m == PASS,
                    self_atari: m != PASS && captured == 0 && b.libs(m) == 1,
                    replies,
                    escape: self.game.problem().escape_libs,
                });
                child.phi = phi;
                child.set_delta(delta);
                pending = Some(Pending {
                    key: self.key(),
                    anc: me,
                    mover: self.game.to_move(),
                });
            }
        }
        self.undo();
        keep.then_some((child, pending))
    }

    /// [`Search::init_child`] without playing `m`, for a stone that
    /// captures nothing; one that captures (or is no move on an empty
    /// point) is played ([`Search::init_played_child`]). The stone's block's liberties
    /// decide a self-atari (only the defender's stone joining the target
    /// needs them exactly, and they come from the target's).
    fn init_stone_child(&mut self, m: Point, here: &Here) -> Option<Init> {
        let g = &self.game;
        let b = g.board();
        debug_assert_eq!(here.open, g.has_room() && g.winner().is_none());
        if !b.is_empty(m) || !here.open {
            return self.init_played_child(m, here.replies);
        }
        let mover = g.to_move();
        let att = mover == self.attacker;
        let libs0 = here.libs0;
        debug_assert_eq!(libs0, self.target_libs());
        let touches = here.libs.contains(m);
        let top = here.top;
        // The stone's block's liberties (counted up to 2 unless it is the
        // target), the target's after the move, and the target's size.
        let (own, libs1, size) = if !att && touches {
            let Some((libs, size)) = self.join_target(m, here, top.target) else {
                return self.init_played_child(m, here.replies);
            };
            (libs, libs, size)
        } else {
            // The border cell 0 heads no block: nothing is avoided. The
            // attacker's stone on a liberty of the target captures nothing
            // only when the target has two or more.
            let own = b
                .libs_after_quiet(mover, m, PASS)
                .or_else(|| b.after_stone(mover, m).map(|(l, _)| l.min(2)));
            let Some(own) = own else {
                return self.init_played_child(m, here.replies);
            };
            (own, libs0 - (att && touches) as usize, top.target)
        };
        if own == 0 {
            return None; // suicide
        }
        let (key, cut) = g.after_stone(m);
        self.generated += 1;
        if self.ladder && att && libs1 != 1 {
            return None;
        }
        let mut counts = top.counts;
        counts[mover.index()] += 1;
        let me = Anc {
            counts,
            target: size,
            passed: false,
            class: ghi::class(mover.opp(), false),
        };
        let mut child = Child::fresh(m);
        let escape = self.game.problem().escape_libs;
        // `exact` at the child: the game ends only by a cut or an escape
        // (the target stays), or the attacker, to move, captures at once
        // (no ko ban after a move that captures nothing, and capturing is
        // never suicide).
        if cut || libs1 >= escape {
            let flags = if cut { PATH_DEP } else { 0 };
            // The defender won: the child's mover wins when it is the defender.
            child.set(Value::solved(att, flags, NO_MOVE), Bound::NONE);
            return Some((child, None));
        }
        if !att && libs1 == 1 {
            if let Some(flags) = self.target_lib_flags(size, here, m) {
                child.set(Value::solved(true, flags, NO_MOVE), Bound::at(&me));
                return Some((child, None));
            }
        }
        let (phi, delta) = self.first_numbers(&Features {
            att,
            libs0,
            libs1,
            captured: 0,
            pass: false,
            self_atari: own == 1,
            replies: here.replies,
            escape,
        });
        child.phi = phi;
        child.set_delta(delta);
        let pending = Pending {
            key: key ^ self.salt,
            anc: me,
            mover: mover.opp(),
        };
        Some((child, Some(pending)))
    }

    /// The liberties and size of the target after the defender's stone on
    /// its liberty `m` joins it (with whatever other blocks it joins), when
    /// the stone captures nothing; `None` when it captures.
    pub(super) fn join_target(&self, m: Point, here: &Here, size: u16) -> Option<(usize, u16)> {
        let b = self.game.board();
        let head = b.block(self.target);
        let defender = self.defender();
        let mut others = [0; 3];
        let mut joined = 0;
        let mut stones = size as usize + 1;
        let mut fresh = 0;
        // By cell value (fewer compares than by `Option<Color>`).
        let (own, enemy) = (defender.cell(), self.attacker.cell());
        for n in Board::neighbors(m) {
            let c = b.cell(n);
            if c == own {
                let h = b.block(n);
                if h != head && !others[..joined].contains(&h) {
                    others[joined] = h;
                    joined += 1;
                    stones += b.block_size(h);
                }
            } else if c == enemy {
                if b.libs(n) == 1 {
                    return None;
                }
            } else if c == EMPTY {
                fresh += !here.libs.contains(n) as usize;
            }
        }
        let libs = if joined == 0 {
            // The target loses `m` and gains the stone's new liberties.
            here.libs0 - 1 + fresh
        } else {
            let mut all = here.libs;
            for n in Board::neighbors(m) {
                if b.is_empty(n) {
                    all.insert(n);
                }
            }
            for &h in &others[..joined] {
                b.for_each_stone(h, |q| {
                    for n in Board::neighbors(q) {
                        if b.is_empty(n) {
                            all.insert(n);
                        }
                    }
                });
            }
            // Less `m` itself, a liberty of the target.
            all.len() - 1
        };
        Some((libs, stones as u16))
    }

    /// Whether the attacker's capture of a target of `size` stones at its
    /// one liberty `lib` surely ends the line after the defender's move
    /// `spent` (a quiet stone, or `PASS`), under every ko model. Only the
    /// capture of a lone stone may not: a ko capture, or a snapback
    /// (`CaptureGame::capture_is_final`). A capturing stone that keeps an
    /// empty neighbour besides the target's point makes neither; nor does
    /// one that joins an attacker block of three liberties or more, which
    /// keeps one after the defender's move and the capture fill two.
    pub(super) fn capture_final_at(&self, size: u16, lib: Point, spent: Point) -> bool {
        if size != 1 {
            return true;
        }
        let b = self.game.board();
        Board::neighbors(lib).iter().any(|&n| {
            n != self.target
                && n != spent
                && (b.is_empty(n) || (b.color_at(n) == Some(self.attacker) && b.libs(n) >= 3))
        })
    }

    /// Whether the capture of [`Search::capture_final_at`] could be a
    /// snapback: its stone joins an attacker block, which the capture may
    /// leave in atari. A ko capture it is not then (its stone joins no
    /// block), so the ko model does not decide it.
    fn capture_may_snap(&self, lib: Point) -> bool {
        let b = self.game.board();
        Board::neighbors(lib)
            .iter()
            .any(|&n| b.color_at(n) == Some(self.attacker))
    }

    /// The flags of the attacker's win by the capture of
    /// [`Search::capture_final_at`], when that capture surely ends the line
    /// under the model searched: `0` when it does under every model, `KO`
    /// when it may be a ko capture that ends the line only because this
    /// model does not let the defender retake (a flagless result must hold
    /// under every model, which the ko codes rely on, as `exact` flags
    /// such a win). `None` when the defender is favoured and may retake,
    /// or the capture may be a snapback: the position is searched.
    pub(super) fn capture_end_flags(&self, size: u16, lib: Point, spent: Point) -> Option<u8> {
        if self.capture_final_at(size, lib, spent) {
            Some(0)
        } else if self.capture_may_snap(lib) || self.game.defender_may_retake() {
            None
        } else {
            Some(KO)
        }
    }

    /// [`Search::capture_end_flags`] at the target's one liberty (in
    /// `here`); a target that grew is never a lone stone.
    fn target_lib_flags(&self, size: u16, here: &Here, spent: Point) -> Option<u8> {
        if size != 1 {
            return Some(0);
        }
        let lib = here.libs.iter().next()?;
        self.capture_end_flags(size, lib, spent)
    }

    /// [`Search::init_child`] for the pass, without playing it. After a
    /// pass no ko ban holds; the defender passes back after the attacker's
    /// pass, and the attacker captures at once after the defender's when
    /// the target is in atari. Where the game is over or the path is full,
    /// the pass is played ([`Search::init_played_child`]).
    fn init_pass_child(&mut self, here: &Here) -> Option<Init> {
        let g = &self.game;
        debug_assert_eq!(here.open, g.has_room() && g.winner().is_none());
        if !here.open {
            return self.init_played_child(PASS, here.replies);
        }
        let mover = g.to_move();
        let att = mover == self.attacker;
        let libs = here.libs0;
        let (key, cut, ends) = g.after_pass();
        self.generated += 1;
        if self.ladder && att && libs != 1 {
            return None;
        }
        let top = here.top;
        let me = Anc {
            passed: true,
            class: ghi::class(mover.opp(), true),
            ..top
        };
        let mut child = Child::fresh(PASS);
        // `exact` at the child: a cut or two passes end the game for the
        // defender; otherwise the defender passes back, or the attacker
        // captures at once.
        if cut || ends {
            let flags = if cut { PATH_DEP } else { 0 };
            child.set(Value::solved(att, flags, NO_MOVE), Bound::NONE);
            return Some((child, None));
        }
        let flags = if att {
            Some(0)
        } else if libs == 1 {
            self.target_lib_flags(top.target, here, PASS)
        } else {
            None
        };
        if let Some(flags) = flags {
            child.set(Value::solved(true, flags, NO_MOVE), Bound::at(&me));
            return Some((child, None));
        }
        let (phi, delta) = self.first_numbers(&Features {
            att,
            libs0: libs,
            libs1: libs,
            captured: 0,
            pass: true,
            self_atari: false,
            replies: here.replies,
            escape: self.game.problem().escape_libs,
        });
        child.phi = phi;
        child.set_delta(delta);
        let pending = Pending {
            key: key ^ self.salt,
            anc: me,
            mover: mover.opp(),
        };
        Some((child, Some(pending)))
    }

    /// A child's first numbers: the df-pn+ heuristic's, or 1 and 1 in a
    /// search without it (see `Search::neutral`). Inlined: a call would
    /// build the features in memory, where inlined most are constants or
    /// in registers already.
    #[inline(always)]
    fn first_numbers(&self, f: &Features) -> (u32, u32) {
        if self.neutral {
            (1, 1)
        } else {
            heuristic(f)
        }
    }

    /// The heuristic numbers of a quiet move (one that captures nothing
    /// and touches no stone of the target), a self-atari or not.
    pub(super) fn quiet_numbers(&self, self_atari: bool, replies: u32) -> (u32, u32) {
        let libs = self.target_libs();
        self.first_numbers(&Features {
            att: self.game.to_move() == self.attacker,
            libs0: libs,
            libs1: libs,
            captured: 0,
            pass: false,
            self_atari,
            replies,
            escape: self.game.problem().escape_libs,
        })
    }

    /// The first numbers of a capture evaluated late (see `frame`): the
    /// heuristic's for a move that captures and leaves the target's
    /// liberties as they are.
    pub(super) fn capture_numbers(&self, replies: u32) -> (u32, u32) {
        let libs = self.target_libs();
        self.first_numbers(&Features {
            att: self.game.to_move() == self.attacker,
            libs0: libs,
            libs1: libs,
            captured: 1,
            pass: false,
            self_atari: false,
            replies,
            escape: self.game.problem().escape_libs,
        })
    }
}
