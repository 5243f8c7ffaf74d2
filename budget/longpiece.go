package budget

import "unicode/utf8"

// longPieceWindow is the size of the windows a long piece is counted in.
const longPieceWindow = 4096

// longPieceMemo bounds the windows one count remembers.
const longPieceMemo = 64

// longPieces counts the pieces longer than longPieceWindow of one text
// (a run without separators: a line of one letter, a blob): window by
// window, at rune boundaries, with one set of buffers, and each distinct
// window counted once (a run of one letter is one window repeated). The
// count is linear in time and memory, and within two tokens or so per
// window of the exact byte-pair count: no merge crosses a window's edge.
type longPieces struct {
	ranks *bpeRanks
	sc    bpeScratch
	memo  map[string]int
}

// count returns the tokens of piece, window by window.
func (l *longPieces) count(piece string) int {
	n := 0
	for len(piece) > 0 {
		w := min(len(piece), longPieceWindow)
		for w < len(piece) && w > 0 && !utf8.RuneStart(piece[w]) {
			w--
		}
		if w == 0 {
			w = min(len(piece), longPieceWindow)
		}
		n += l.window(piece[:w])
		piece = piece[w:]
	}
	return n
}

// window counts one window, remembering the count.
func (l *longPieces) window(s string) int {
	if c, ok := l.memo[s]; ok {
		return c
	}
	var c int
	if len(s) >= bpeHeapMin && !l.ranks.isToken(s) {
		c = l.ranks.countHeapWith(s, &l.sc)
	} else {
		c = l.ranks.count(s)
	}
	if l.memo == nil || len(l.memo) >= longPieceMemo {
		l.memo = make(map[string]int, longPieceMemo)
	}
	l.memo[s] = c
	return c
}
