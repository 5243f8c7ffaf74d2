package budget

import (
	"math"
)

// bpeHeapMin is the piece length from which bpeRanks.count merges with a heap
// (O(n log n)) instead of rescanning all pairs per merge (O(n^2), faster for
// the short pieces that make up nearly all text).
const bpeHeapMin = 128

// bpeRanks holds an encoding's merge ranks: every token's rank by its
// bytes, and for speed the ranks of all two-byte tokens in a flat table.
type bpeRanks struct {
	ranks map[string]int
	pairs []int32 // pairs[b0<<8|b1] = rank of the token b0 b1, or -1
}

func newBPERanks(ranks map[string]int) *bpeRanks {
	r := &bpeRanks{ranks: ranks, pairs: make([]int32, 1<<16)}
	for i := range r.pairs {
		r.pairs[i] = -1
	}
	for tok, rank := range ranks {
		if len(tok) == 2 && rank >= 0 && rank <= math.MaxInt32 {
			r.pairs[int(tok[0])<<8|int(tok[1])] = int32(rank)
		}
	}
	return r
}

// rank returns the rank of the token with bytes s, or math.MaxInt.
func (r *bpeRanks) rank(s string) int {
	if len(s) == 2 {
		if v := r.pairs[int(s[0])<<8|int(s[1])]; v >= 0 {
			return int(v)
		}
		return math.MaxInt
	}
	if v, ok := r.ranks[s]; ok {
		return v
	}
	return math.MaxInt
}

// isToken reports whether s is a single token.
func (r *bpeRanks) isToken(s string) bool {
	switch len(s) {
	case 0:
		return false
	case 1:
		return true // every byte is a token in o200k_base and cl100k_base
	case 2:
		return r.pairs[int(s[0])<<8|int(s[1])] >= 0
	}
	_, ok := r.ranks[s]
	return ok
}

// count returns how many tokens byte-pair encoding turns piece into,
// merging the lowest-ranked adjacent pair first (leftmost on ties), as
// tiktoken-go's bytePairEncode does.
func (r *bpeRanks) count(piece string) int {
	switch {
	case r.isToken(piece):
		return 1
	case len(piece) <= 1:
		return len(piece)
	case len(piece) >= bpeHeapMin:
		return r.countHeap(piece)
	}
	return r.countScan(piece)
}

// bpePart is a part of a piece: where it starts and the rank of merging it
// with the next part (math.MaxInt if that pair is not a token).
type bpePart struct {
	start, rank int
}

func (r *bpeRanks) countScan(piece string) int {
	var buf [bpeHeapMin + 1]bpePart
	parts := buf[:len(piece)+1]
	for i := range parts {
		parts[i] = bpePart{start: i, rank: math.MaxInt}
	}
	rank := func(i int) int { // rank of parts i..i+1 merged
		if i+2 < len(parts) {
			return r.rank(piece[parts[i].start:parts[i+2].start])
		}
		return math.MaxInt
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = rank(i)
	}
	for len(parts) > 1 {
		minRank, minIdx := math.MaxInt, -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i].rank < minRank {
				minRank, minIdx = parts[i].rank, i
			}
		}
		if minIdx < 0 {
			break
		}
		i := minIdx
		copy(parts[i+1:], parts[i+2:])
		parts = parts[:len(parts)-1]
		parts[i].rank = rank(i)
		if i > 0 {
			parts[i-1].rank = rank(i - 1)
		}
	}
	return len(parts) - 1
}

// pairHeap is a binary min-heap of candidate merges ordered by rank, then
// by position. It is typed (no container/heap boxing): a long piece such as
// a megabyte without separators pushes millions of entries.
type pairHeap []bpePart

func (h pairHeap) less(i, j int) bool {
	return h[i].rank < h[j].rank || (h[i].rank == h[j].rank && h[i].start < h[j].start)
}

func (h pairHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(p bpePart) {
	*h = append(*h, p)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *pairHeap) pop() bpePart {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	s.down(0)
	*h = s
	return top
}

// countHeap is countScan with a doubly linked list of parts and a heap of
// candidate merges; stale heap entries are skipped.
func (r *bpeRanks) countHeap(piece string) int {
	var sc bpeScratch
	return r.countHeapWith(piece, &sc)
}

// bpeScratch holds countHeapWith's buffers, reused from piece to piece.
type bpeScratch struct {
	next, prev, rank []int32
	h                pairHeap
}

// grow returns s resliced to n, reallocated only when too small.
func grow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// countHeapWith is countHeap with the buffers of sc (a piece under 2 GiB).
// A dead part has prev -2; rank math.MaxInt32 means no merge.
func (r *bpeRanks) countHeapWith(piece string, sc *bpeScratch) int {
	n := len(piece)
	sc.next, sc.prev, sc.rank = grow(sc.next, n+1), grow(sc.prev, n+1), grow(sc.rank, n+1)
	next, prev, rank := sc.next, sc.prev, sc.rank
	for i := 0; i <= n; i++ {
		next[i], prev[i], rank[i] = int32(i+1), int32(i-1), math.MaxInt32
	}
	pairRank := func(a int32) int32 { // rank of the part at a merged with its next
		b := next[a]
		if int(b) >= n {
			return math.MaxInt32
		}
		return int32(min(r.rank(piece[a:next[b]]), math.MaxInt32))
	}
	h := sc.h[:0]
	for i := int32(0); int(i) < n-1; i++ {
		if r := pairRank(i); r != math.MaxInt32 {
			rank[i] = r
			h = append(h, bpePart{start: int(i), rank: int(r)})
		}
	}
	h.init()
	count := n
	for len(h) > 0 {
		top := h.pop()
		a := int32(top.start)
		if prev[a] == -2 || int(rank[a]) != top.rank {
			continue // stale
		}
		b := next[a]
		prev[b] = -2
		next[a] = next[b]
		prev[next[b]] = a
		count--
		if r := pairRank(a); r != rank[a] {
			rank[a] = r
			if r != math.MaxInt32 {
				h.push(bpePart{start: int(a), rank: int(r)})
			}
		}
		if p := prev[a]; p >= 0 {
			if r := pairRank(p); r != rank[p] {
				rank[p] = r
				if r != math.MaxInt32 {
					h.push(bpePart{start: int(p), rank: int(r)})
				}
			}
		}
	}
	sc.h = h
	return count
}
