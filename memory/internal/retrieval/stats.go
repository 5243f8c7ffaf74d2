package retrieval

// Stats counts what retrieval did over a Memory's loads
// (memory.RetrievalStats).
type Stats struct {
	Loads     int // loads with an input in synchronous mode with retrieval on
	Retrieved int // loads that added retrieved messages
	Messages  int // messages retrieved, over all loads
	Empty     int // loads whose input has no words to search for
	TooLarge  int // loads whose input is larger than the reserve
	// NoSearch counted loads over a history without store.Searcher, which
	// retrieved nothing; such histories are now ranked by the Memory's
	// in-memory index (Indexed), so it stays 0.
	NoSearch int
	// Searched counts the loads ranked by the history's own search
	// (store.Searcher); Indexed those ranked by the Memory's in-memory
	// index, the history having no search of its own.
	Searched, Indexed int
	Nothing           int // loads after a compaction that found nothing out of the context to add
	Errors            int // searches that failed
	// SemanticErrors counts loads whose semantic ranking failed and that
	// ranked lexically only (see memory.WithEmbedder).
	SemanticErrors int
}

// count records the outcome of one load of plan p that retrieved n
// messages.
func (s *Stats) count(p *Plan, n int) {
	s.Loads++
	if p.semErr {
		s.SemanticErrors++
	}
	switch {
	case !p.ranked:
	case p.indexed:
		s.Indexed++
	default:
		s.Searched++
	}
	switch {
	case p.skip == skipEmpty:
		s.Empty++
	case p.skip == skipTooLarge:
		s.TooLarge++
	case p.skip == skipError:
		s.Errors++
	case n == 0:
		s.Nothing++
	default:
		s.Retrieved++
		s.Messages += n
	}
}
