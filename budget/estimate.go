package budget

// EstimateTokens returns a conservative token estimate of text for models
// without a public tokenizer. See the package documentation for its design
// and its measured ratio to o200k_base. It is cheap (one pass over the
// bytes, no allocation) and safe for concurrent use.
func EstimateTokens(text string) int {
	if text == "" {
		return 0
	}
	n := len(text)
	return (n + 2) / 3
}
