package compact

// WithTokens returns s with its token figures for a conversation of
// original tokens whose context counts active tokens, as the engine sets
// them: TokensOriginal and TokensActive, TokensSaved (original - active,
// at least 0) and CompressionRatio (active / original, 0 when original is
// 0). An adapter that counts its own history (the whole of it, the
// context it shows) reports its figures with it.
func (s Stats) WithTokens(original, active int) Stats {
	s.TokensOriginal, s.TokensActive = original, active
	s.TokensSaved = max(0, original-active)
	s.CompressionRatio = 0
	if original > 0 {
		s.CompressionRatio = float64(active) / float64(original)
	}
	return s
}
