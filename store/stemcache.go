package store

// StemCache remembers the keys ([SearchKey]) of the words it has stemmed:
// Snowball's stemmer is most of the cost of indexing a message, and a
// conversation repeats its words. It holds at most 65,536 words (then it
// starts afresh). The zero value is ready to use; it is not safe for
// concurrent use.
type StemCache struct {
	m map[string]string
}

// maxStemCache bounds a StemCache; past it the cache starts afresh.
const maxStemCache = 1 << 16

// Key returns SearchKey(word), from the cache when it has it.
func (c *StemCache) Key(word string) string {
	if k, ok := c.m[word]; ok {
		return k
	}
	if c.m == nil || len(c.m) >= maxStemCache {
		c.m = make(map[string]string)
	}
	k := SearchKey(word)
	c.m[word] = k
	return k
}

// Keys returns SearchKeys(text), stemming through the cache.
func (c *StemCache) Keys(text string) []string { return searchKeys(text, c.Key) }

// TermKeys returns the distinct keys of terms (words as [SearchTerms]
// returns them), in order of first appearance, stemming through the cache:
// Keys(text) is TermKeys(SearchTerms(text)), for a caller that has the
// terms already. terms is not modified.
func (c *StemCache) TermKeys(terms []string) []string {
	return termKeys(append([]string(nil), terms...), c.Key)
}
