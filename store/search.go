package store

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Searcher is a history that ranks its own messages against a query:
// memory.Memory uses it, when its history implements it, to bring back the
// earlier messages that compaction took out of the context and that best
// match the input of a turn. A history without it gets no retrieval (the
// Memory degrades to its summary and recall tool).
//
// Words match their inflections: the implementations here compare English
// stems (Snowball's English stemmer in the in-memory index, FTS5's porter
// tokenizer, PostgreSQL's "english" text-search configuration by default),
// so "subjects" finds "subject" and "visiting" finds "visit".
//
// The query is plain text: [SearchTerms] splits it into words, and every
// character of the search syntaxes of the implementations (FTS5's, or
// PostgreSQL's tsquery: & | ! : * ( ) ' " and SQL's % _) is literal, never
// an error. Implementations: [ChatHistory] (BM25 over an in-memory index),
// the SQLite store's history (FTS5, bm25) and the PostgreSQL store's
// history (full-text search, ts_rank).
type Searcher interface {
	// Search returns at most limit positions of the history's messages
	// (0-based, as MessagesSince counts them), best match first, with
	// their score (higher is better; comparable within one answer only).
	// A query without words, or limit <= 0, finds nothing (no error).
	Search(ctx context.Context, query string, limit int) ([]Hit, error)
}

// Hit is one message a [Searcher] found.
type Hit struct {
	Pos   int     // the message's position in the history
	Score float64 // higher is better
}

// maxSearchTerms caps the words of a query a search looks up.
const maxSearchTerms = 32

// SearchTerms returns the words of text a search looks up: runs of
// letters and digits, lower-cased, without common English function words
// and duplicates, in order of first appearance, at most 32. Every other
// character separates words, so no character of any search syntax reaches
// a query.
func SearchTerms(text string) []string {
	out := make([]string, 0, 8)
	seen := make(map[string]bool, 8)
	eachWord(text, func(w string) bool {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
		return len(out) < maxSearchTerms
	})
	return out
}

// stopWords are English function words too common to rank by.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for with from as is are was were be been being
		am do does did done have has had i me my mine you your yours he him his she her hers it its we us our they them their
		what which who whom whose when where why how this that these those there here not no yes so too very can could would
		should will shall may might must just about into over than then also any all some s t d ll re ve m o y don didn doesn`) {
		m[w] = true
	}
	return m
}()

// eachWord calls yield with the runs of letters and digits of text,
// lower-cased, in order, until it returns false: the fields
// strings.FieldsFunc finds in the lower-cased text at every rune that is
// neither (FuzzEachWord), found by one scan that decodes only the bytes
// past ASCII.
func eachWord(text string, yield func(w string) bool) {
	lower := strings.ToLower(text)
	for i := 0; i < len(lower); {
		w := wordRuneLen(lower[i:])
		if w < 0 {
			i -= w
			continue
		}
		j := i + w
		for j < len(lower) {
			n := wordRuneLen(lower[j:])
			if n < 0 {
				break
			}
			j += n
		}
		if !yield(lower[i:j]) {
			return
		}
		i = j
	}
}

// wordRuneLen returns the length of the rune s starts with when it is a
// letter or a digit, else minus that length.
func wordRuneLen(s string) int {
	if c := s[0]; c < utf8.RuneSelf {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' {
			return 1
		}
		return -1
	}
	r, n := utf8.DecodeRuneInString(s)
	if notWordRune(r) {
		return -n
	}
	return n
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// SearchKey returns the key under which a word (lower-cased, as
// [SearchTerms] returns it) is indexed and looked up: its stem by
// Snowball's English stemmer, the algorithm of PostgreSQL's "english"
// text-search configuration, so that a word and its inflections share one
// key ("subjects" and "subject", "visiting" and "visited"). Words of other
// scripts and short words come back unchanged.
func SearchKey(word string) string { return english.Stem(word, false) }

// SearchKeys returns the distinct keys ([SearchKey]) of the words
// [SearchTerms] finds in text, in order of first appearance.
func SearchKeys(text string) []string { return searchKeys(text, SearchKey) }

// searchKeys returns the distinct keys, by key, of the words SearchTerms
// finds in text, in order of first appearance.
func searchKeys(text string, key func(string) string) []string {
	return termKeys(SearchTerms(text), key)
}

// termKeys returns the distinct keys, by key, of terms, in order of first
// appearance, written over terms.
func termKeys(terms []string, key func(string) string) []string {
	out := terms[:0]
	seen := make(map[string]bool, len(terms))
	for _, w := range terms {
		if k := key(w); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
