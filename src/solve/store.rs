//! The compact tree store of the best-first solvers (PNS, PN², PP, PPT,
//! PP², MCTS-Solver), after seed 003 ("Proof Number search: variants and
//! refinements", section "Efficient tree representations"):
//!
//! * nodes live in one flat array and are named by 32-bit ids;
//! * a node holds its value (8 bytes: proof and disproof numbers, a
//!   probability, or visit statistics), where its children start, how many
//!   there are, and flags: 16 bytes;
//! * the children of a node are one contiguous run of *edges*; an edge is
//!   the move that leads to the child and, in a DAG (transpositions),
//!   where an edge may point to a node created elsewhere, the child's id
//!   (4 + `size_of::<Move>()` bytes, kept in two parallel arrays so that a
//!   one-byte move costs one byte). In a tree, a node's children are
//!   consecutive nodes created with their edges, so the child of edge `e`
//!   is node `e + 1` and no id is stored;
//! * positions are not stored: the solver replays the edges' moves from the
//!   root while it descends, and undoes them on the way back, so the path
//!   from the root is the only parent link (no parent ids either).
//!
//! Per tree node that is 16 + 1 = 17 bytes for Domineering and NoGo
//! (one-byte moves), 21 with a child id; [`Store::new`] asserts at most 24
//! bytes per node either way.
//!
//! Everything is reserved once, at setup, from a byte budget (the solver's
//! [`Limits::memory`](super::Limits)), in fixed-capacity [`Buf`]s that
//! never grow afterwards, and a solver that would need more nodes stops
//! with [`Stopped::Memory`](super::Stopped). Untouched capacity costs no
//! physical memory (the kernel maps pages on first write), so a large
//! budget is cheap for small searches; [`Store::bytes_used`] counts what
//! is used. A [`Buf`]'s memory comes from the [`pool`](super::pool) and
//! returns to it when the search is dropped, so the next search of the
//! process writes over pages already mapped instead of paying the kernel's
//! fault and zero fill again (40% of PP's time on Domineering 5×6).
//!
//! The transposition variants (PNS with transpositions, PPT) also need a
//! map from position key to node id: [`Table`], open addressing with
//! linear probing, reserved once and grown in place. It compares full
//! 64-bit keys, so two positions share a node only if their Zobrist keys
//! collide completely.

use super::pool::{Buf, PairPush};
use std::mem::size_of;

/// A node's name: its index in the store.
pub type NodeId = u32;

/// Flag: the node's children have been created.
pub const EXPANDED: u16 = 1;
/// Flag: the player to move at the node wins (proven).
pub const WON: u16 = 2;
/// Flag: the player to move at the node loses (proven).
pub const LOST: u16 = 4;
/// The flag bits of [`Node::flags`]; the bits above hold the index of the
/// child the node last selected.
pub const FLAGS: u16 = 7;

/// One node: 16 bytes when `V` is 8 bytes with 4-byte alignment.
#[derive(Clone, Copy, Debug)]
pub struct Node<V: Copy> {
    pub value: V,
    /// Index of the first edge of the children's run.
    pub first: u32,
    /// Number of children (0 until expanded, and for terminal nodes).
    pub len: u16,
    /// [`EXPANDED`], [`WON`], [`LOST`] in the low bits ([`FLAGS`]), and
    /// the selected child's index above them (at most 8191 children;
    /// [`MAX_MOVES`](crate::games::MAX_MOVES) is 512).
    pub flags: u16,
}

impl<V: Copy> Node<V> {
    pub fn new(value: V, flags: u16) -> Node<V> {
        Node {
            value,
            first: 0,
            len: 0,
            flags,
        }
    }

    pub fn solved(&self) -> bool {
        self.flags & (WON | LOST) != 0
    }

    /// The index of the child selected at the node's last update.
    #[inline]
    pub fn best(&self) -> usize {
        (self.flags >> 3) as usize
    }

    #[inline]
    pub fn set_flags_and_best(&mut self, flags: u16, best: usize) {
        debug_assert!(best < 1 << 13);
        self.flags = (flags & FLAGS) | (best as u16) << 3;
    }
}

/// Most bytes one tree node may take (node, edge and move): seed 003's
/// layout is 20 bytes; the issue allows 24.
pub const MAX_NODE_BYTES: usize = 24;

/// Nodes and edges, reserved once.
///
/// A tree stores no child ids: every child is created together with its
/// edge (node, then edge), and the root has no edge, so the child of edge
/// `e` is node `e + 1` (one load less per descent step and 4 bytes less
/// per node). A DAG keeps the id of each edge's child.
pub struct Store<V: Copy, M: Copy> {
    pub nodes: Buf<Node<V>>,
    /// The child of each edge (DAG only).
    edge_child: Buf<NodeId>,
    pub edge_move: Buf<M>,
    dag: bool,
    node_cap: usize,
    edge_cap: usize,
    peak: usize,
}

impl<V: Copy, M: Copy> Store<V, M> {
    /// Bytes of one node's record.
    pub const NODE_BYTES: usize = size_of::<Node<V>>();
    /// Bytes of one edge of a DAG (child id and move).
    pub const EDGE_BYTES: usize = size_of::<NodeId>() + size_of::<M>();
    /// Bytes of one edge of a tree (the move).
    pub const TREE_EDGE_BYTES: usize = size_of::<M>();

    /// A store for as many nodes as `bytes` holds, at most `max_nodes`: a
    /// tree (one edge per node), or a DAG, where several edges lead to one
    /// node (two per node are reserved).
    pub fn new(bytes: usize, dag: bool, max_nodes: usize) -> Store<V, M> {
        assert!(
            Self::NODE_BYTES + Self::EDGE_BYTES <= MAX_NODE_BYTES,
            "tree node of {} bytes",
            Self::NODE_BYTES + Self::EDGE_BYTES
        );
        let (edges_per_node, edge_bytes) = if dag {
            (2, Self::EDGE_BYTES)
        } else {
            (1, Self::TREE_EDGE_BYTES)
        };
        let per_node = Self::NODE_BYTES + edges_per_node * edge_bytes;
        // 32-bit ids: the last id is never used, so `u32::MAX` can mean none.
        let node_cap = (bytes / per_node)
            .min(max_nodes)
            .clamp(1, u32::MAX as usize - 1);
        let edge_cap = node_cap.saturating_mul(edges_per_node);
        let nodes = Buf::with_capacity(node_cap);
        let edge_child = Buf::with_capacity(if dag { edge_cap } else { 0 });
        let edge_move = Buf::with_capacity(edge_cap);
        Store {
            nodes,
            edge_child,
            edge_move,
            dag,
            node_cap,
            edge_cap,
            peak: 0,
        }
    }

    /// Forgets every node (keeps the reservation).
    pub fn clear(&mut self) {
        self.note_peak();
        self.nodes.clear();
        self.edge_child.clear();
        self.edge_move.clear();
    }

    pub fn node_capacity(&self) -> usize {
        self.node_cap
    }

    /// Whether `nodes` more nodes and `edges` more edges fit.
    pub fn fits(&self, nodes: usize, edges: usize) -> bool {
        self.nodes.len() + nodes <= self.node_cap && self.edge_move.len() + edges <= self.edge_cap
    }

    /// Number of edges: the index the next edge gets.
    #[inline]
    pub fn edges(&self) -> usize {
        self.edge_move.len()
    }

    /// The child edge `e` leads to.
    #[inline]
    pub fn child(&self, e: usize) -> NodeId {
        if self.dag {
            self.edge_child[e]
        } else {
            e as NodeId + 1
        }
    }

    /// Adds a node (the caller checked [`Store::fits`]).
    #[inline]
    pub fn push_node(&mut self, node: Node<V>) -> NodeId {
        debug_assert!(self.nodes.len() < self.node_cap);
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }

    /// Adds an edge to `child` (the caller checked [`Store::fits`]); in a
    /// tree, `child` is the node created just before.
    #[inline]
    pub fn push_edge(&mut self, child: NodeId, m: M) {
        debug_assert!(self.edge_move.len() < self.edge_cap);
        if self.dag {
            self.edge_child.push(child);
        } else {
            debug_assert_eq!(child as usize, self.edge_move.len() + 1);
        }
        self.edge_move.push(m);
    }

    /// In a tree, adds the `k` children of one expansion at once: the
    /// `i`-th child's node is `node(i)` and its edge's move `moves[i]`
    /// (the caller checked [`Store::fits`]). The same store as `k` calls of
    /// [`Store::push_node`] and [`Store::push_edge`], with one capacity
    /// check per array and one loop.
    #[inline]
    pub fn push_tree_children(&mut self, moves: &[M], node: impl FnMut(usize) -> Node<V>) {
        debug_assert!(!self.dag && self.nodes.len() == self.edge_move.len() + 1);
        let mut node = node;
        self.nodes
            .extend_pair_with(&mut self.edge_move, moves.len(), |i| (node(i), moves[i]));
    }

    /// [`Store::push_tree_children`] for children that `fill` pushes,
    /// node and move, through [`PairPush::push`], at most `n` of them;
    /// returns how many it pushed.
    #[inline(always)]
    pub fn push_tree_children_by(
        &mut self,
        n: usize,
        fill: impl FnOnce(&mut PairPush<Node<V>, M>),
    ) -> usize {
        debug_assert!(!self.dag && self.nodes.len() == self.edge_move.len() + 1);
        self.nodes.push_pairs(&mut self.edge_move, n, fill)
    }

    /// In a tree, makes this store a copy of the subtree of node `id` of
    /// `src` (a tree), with `id` as its root (node 0): every node keeps its
    /// value, flags, selected child and children (in the same order, with
    /// the same moves). False, with the store left empty, when the copy
    /// does not fit.
    ///
    /// Breadth first, with the copy itself as the queue: while a copied
    /// node waits for its children to be copied, its `first` holds the id
    /// of its original, so no other memory is needed.
    pub fn copy_subtree(&mut self, src: &Store<V, M>, id: NodeId) -> bool {
        assert!(!self.dag && !src.dag, "copy_subtree works on trees");
        self.clear();
        let mut root = src.nodes[id as usize];
        root.first = id;
        // Every store has room for one node.
        self.nodes.push(root);
        let mut j = 0;
        while j < self.nodes.len() {
            let original = src.nodes[self.nodes[j].first as usize];
            if original.flags & EXPANDED == 0 {
                self.nodes[j].first = 0;
            } else {
                let (first, len) = (original.first as usize, original.len as usize);
                if !self.fits(len, len) {
                    self.clear();
                    return false;
                }
                self.nodes[j].first = self.edges() as u32;
                let (children, moves) = (
                    &src.nodes[first + 1..][..len],
                    &src.edge_move[first..][..len],
                );
                self.nodes.extend_pair_with(&mut self.edge_move, len, |i| {
                    let mut child = children[i];
                    child.first = (first + 1 + i) as u32;
                    (child, moves[i])
                });
            }
            j += 1;
        }
        true
    }

    /// The child ids of the edges `first..first + len` in a DAG; `None` in
    /// a tree, where they are implicit (see [`Store::tree_children`]).
    #[inline]
    pub fn child_ids(&self, first: usize, len: usize) -> Option<&[NodeId]> {
        self.dag.then(|| &self.edge_child[first..first + len])
    }

    /// In a tree, the children of the edges `first..first + len`: the child
    /// of edge `e` is node `e + 1`.
    #[inline]
    pub fn tree_children(&self, first: usize, len: usize) -> &[Node<V>] {
        debug_assert!(!self.dag);
        &self.nodes[first + 1..first + 1 + len]
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<V> {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<V> {
        &mut self.nodes[id as usize]
    }

    /// Bytes of nodes and edges in use now.
    pub fn bytes_used(&self) -> usize {
        self.nodes.len() * Self::NODE_BYTES
            + self.edge_move.len() * Self::TREE_EDGE_BYTES
            + self.edge_child.len() * size_of::<NodeId>()
    }

    /// Records the current use in the peak.
    pub fn note_peak(&mut self) {
        self.peak = self.peak.max(self.bytes_used());
    }

    /// Most bytes used since creation.
    pub fn peak(&self) -> usize {
        self.peak.max(self.bytes_used())
    }
}

/// No node.
pub const NONE: NodeId = u32::MAX;

/// Map from position key to node id for the transposition variants: open
/// addressing with linear probing over a power-of-two array of 8-byte
/// slots, each holding a node id and the high half of its key, so that a
/// lookup reads one cache line (a chain through separate arrays cost a
/// cache miss per link, and the table is far larger than the caches).
/// The full 64-bit key of every node is kept in a second array, by id:
/// a slot whose half key matches is confirmed there, so two positions
/// share a node only if their Zobrist keys collide completely.
///
/// Every array is reserved once, at setup, for the store's node capacity;
/// the slot array starts small and doubles in place (within its
/// reservation, so without allocating) whenever more than ⅔ of it is in
/// use, refilled in one sequential pass over the keys. So the memory
/// touched follows the nodes in use: a table sized for a large budget
/// costs nothing on a small problem (at random, page faults would cost
/// more than the search).
///
/// Per node: 8 (key) + 12 to 24 (slots at load ⅓–⅔) bytes. Nodes must be
/// inserted in id order, every one of them (the root too).
pub struct Table {
    /// 0 for an empty slot, else `(key >> 32) << 32 | (id + 1)`.
    slots: Buf<u64>,
    keys: Buf<u64>,
    mask: usize,
}

/// Slots of a fresh table.
const MIN_SLOTS: usize = 1 << 11;

impl Table {
    /// Bytes per node, at most.
    pub const NODE_BYTES: usize = 8 + 24;

    /// A table for up to `nodes` nodes.
    pub fn new(nodes: usize) -> Table {
        let max_slots = (nodes + nodes / 2 + 1).max(MIN_SLOTS).next_power_of_two();
        let mut slots = Buf::with_capacity(max_slots);
        let keys = Buf::with_capacity(nodes);
        slots.resize(MIN_SLOTS, 0);
        Table {
            slots,
            keys,
            mask: MIN_SLOTS - 1,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.slots.resize(MIN_SLOTS, 0);
        self.mask = MIN_SLOTS - 1;
        self.keys.clear();
    }

    /// Bytes in use.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8 + self.keys.len() * 8
    }

    #[inline]
    fn tag(key: u64) -> u64 {
        key >> 32 << 32
    }

    /// The node stored under `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<NodeId> {
        let tag = Self::tag(key);
        let mut i = key as usize & self.mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            if slot & !0xFFFF_FFFF == tag {
                let id = (slot as u32 - 1) as usize;
                if self.keys[id] == key {
                    return Some(id as NodeId);
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Asks the processor to fetch the slot of `key` ahead of a
    /// [`Table::get`]: an expansion looks up all its children's keys, and
    /// overlapping their cache misses is most of the speed of
    /// transposition search on large trees.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.slots.as_ptr().wrapping_add(key as usize & self.mask));
    }

    /// The second step of [`Table::prefetch`], once the slot is cached:
    /// fetches the full key of the first node whose half key matches, and
    /// returns that node (most likely the one [`Table::get`] will find),
    /// so that the caller may fetch it too.
    #[inline]
    pub fn prefetch_match(&self, key: u64) -> Option<NodeId> {
        let tag = Self::tag(key);
        let mut i = key as usize & self.mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            if slot & !0xFFFF_FFFF == tag {
                let id = slot as u32 - 1;
                prefetch(self.keys.as_ptr().wrapping_add(id as usize));
                return Some(id);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Whether `k` more nodes fit.
    pub fn has_room_for(&self, k: usize) -> bool {
        self.keys.len() + k <= self.keys.capacity()
    }

    /// Stores node `id`, the next id in order, under `key`.
    #[inline]
    pub fn insert(&mut self, key: u64, id: NodeId) {
        debug_assert_eq!(id as usize, self.keys.len());
        self.keys.push(key);
        self.place(key, id);
        if self.keys.len() * 3 > self.slots.len() * 2
            && self.slots.len() * 2 <= self.slots.capacity()
        {
            self.grow();
        }
    }

    /// Writes `id` into the first free slot from `key`'s.
    #[inline]
    fn place(&mut self, key: u64, id: NodeId) {
        let mut i = key as usize & self.mask;
        while self.slots[i] != 0 {
            i = (i + 1) & self.mask;
        }
        self.slots[i] = Self::tag(key) | (id as u64 + 1);
    }

    /// Doubles the slots in place and stores every node again.
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        self.slots.clear();
        self.slots.resize(n, 0);
        self.mask = n - 1;
        for id in 0..self.keys.len() {
            self.place(self.keys[id], id as NodeId);
        }
    }
}

/// A hint to fetch the cache line at `p`; nothing happens on other
/// architectures.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults and changes no
    // memory, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Asks the kernel to back a large buffer with transparent huge pages
/// (Linux `madvise(MADV_HUGEPAGE)`, as chess engines do for their tables):
/// a hash table is touched at random, and faulting it in 4 KiB pages
/// costs more than the search itself on small problems. Advice only:
/// nothing changes where the kernel declines.
pub fn advise_huge_pages<T>(v: &mut Vec<T>) {
    advise_range(v.as_mut_ptr() as usize, v.capacity() * size_of::<T>());
}

/// [`advise_huge_pages`] for the `len` bytes at address `start`, which
/// must be memory the caller owns.
pub fn advise_range(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        const MADV_HUGEPAGE: i32 = 14;
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        let end = start + len;
        // Only whole huge pages inside the allocation.
        let (a, b) = ((start + HUGE - 1) & !(HUGE - 1), end & !(HUGE - 1));
        if b > a {
            // SAFETY: [a, b) lies inside the caller's memory; MADV_HUGEPAGE changes no contents or mappings
            // visible to the program.
            unsafe {
                madvise(a as *mut std::ffi::c_void, b - a, MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_layout_is_compact() {
        assert_eq!(size_of::<Node<[u32; 2]>>(), 16);
        assert_eq!(size_of::<Node<[f32; 2]>>(), 16);
        const {
            assert!(Store::<[u32; 2], u8>::NODE_BYTES + Store::<[u32; 2], u8>::EDGE_BYTES <= 24);
            assert!(Store::<[u32; 2], u16>::NODE_BYTES + Store::<[u32; 2], u16>::EDGE_BYTES <= 24);
        }
    }

    #[test]
    fn store_stops_at_its_budget() {
        let mut s: Store<[u32; 2], u8> = Store::new(26 * 10, true, usize::MAX);
        assert_eq!(s.node_capacity(), 10);
        assert!(s.fits(10, 10));
        assert!(!s.fits(11, 1));
        for i in 0..10 {
            s.push_node(Node::new([i, i], 0));
            s.push_edge(i, i as u8);
        }
        assert_eq!(s.bytes_used(), 210);
        assert!(!s.fits(1, 0));
        s.clear();
        assert!(s.fits(10, 10));
        assert_eq!(s.peak(), 210);
        // A tree: 17 bytes per node, children found by edge index.
        let mut t: Store<[u32; 2], u8> = Store::new(17 * 10, false, usize::MAX);
        assert_eq!(t.node_capacity(), 10);
        t.push_node(Node::new([0, 0], 0));
        for i in 1..10 {
            let c = t.push_node(Node::new([i, i], 0));
            t.push_edge(c, i as u8);
        }
        assert_eq!(t.child(3), 4);
        assert_eq!(t.bytes_used(), 10 * 16 + 9);
    }

    /// A tree for the copy tests: root 0 with children 1, 2 (moves 10,
    /// 20); node 2 expanded with children 3, 4, 5 (moves 30, 40, 50),
    /// node 2 selecting its child 1.
    fn small_tree(bytes: usize) -> Store<[u32; 2], u8> {
        let mut t: Store<[u32; 2], u8> = Store::new(bytes, false, usize::MAX);
        let mut root = Node::new([0, 0], EXPANDED);
        root.first = 0;
        root.len = 2;
        t.push_node(root);
        for (i, m) in [(1, 10), (2, 20)] {
            let c = t.push_node(Node::new([i, i], 0));
            t.push_edge(c, m);
        }
        t.node_mut(2).first = t.edges() as u32;
        t.node_mut(2).len = 3;
        t.node_mut(2).set_flags_and_best(EXPANDED, 1);
        for (i, m) in [(3, 30), (4, 40), (5, 50)] {
            let c = t.push_node(Node::new([i, i], WON));
            t.push_edge(c, m);
        }
        t
    }

    #[test]
    fn copy_subtree_keeps_shape_values_and_moves() {
        let t = small_tree(17 * 10);
        let mut c: Store<[u32; 2], u8> = Store::new(17 * 10, false, usize::MAX);
        c.push_node(Node::new([9, 9], 0));
        assert!(c.copy_subtree(&t, 2));
        assert_eq!(c.nodes.len(), 4);
        let root = *c.node(0);
        assert_eq!((root.value, root.len, root.best()), ([2, 2], 3, 1));
        assert_eq!(root.flags & FLAGS, EXPANDED);
        for i in 0..3 {
            let e = root.first as usize + i;
            let child = c.node(c.child(e));
            assert_eq!(child.value, [3 + i as u32; 2]);
            assert_eq!((child.flags, child.first, child.len), (WON, 0, 0));
            assert_eq!(c.edge_move[e], 30 + 10 * i as u8);
        }
        // A leaf alone.
        assert!(c.copy_subtree(&t, 1));
        assert_eq!((c.nodes.len(), c.edges()), (1, 0));
        assert_eq!(c.node(0).value, [1, 1]);
    }

    #[test]
    fn copy_subtree_that_does_not_fit_leaves_the_store_empty() {
        let t = small_tree(17 * 10);
        let mut c: Store<[u32; 2], u8> = Store::new(17 * 3, false, usize::MAX);
        assert!(!c.copy_subtree(&t, 2));
        assert_eq!((c.nodes.len(), c.edges()), (0, 0));
    }

    #[test]
    fn table_finds_what_it_stores_and_grows_in_place() {
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut t = Table::new(5000);
        let reserved = t.slots.capacity();
        for k in 0..5000u64 {
            assert_eq!(t.get(key(k)), None);
            t.insert(key(k), k as NodeId);
        }
        assert!(!t.has_room_for(1));
        assert_eq!(t.slots.len(), 8192);
        assert_eq!(t.slots.capacity(), reserved);
        for k in 0..5000u64 {
            assert_eq!(t.get(key(k)), Some(k as NodeId));
        }
        assert_eq!(t.get(12345), None);
        t.clear();
        assert_eq!(t.get(key(7)), None);
    }
}
