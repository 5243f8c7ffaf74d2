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
// lower-cased, in order, until it returns false. ASCII text is scanned byte
// by byte; other text is split by strings.FieldsFunc, which ASCII text
// splits the same way (FuzzEachWord).
func eachWord(text string, yield func(w string) bool) {
	lower := strings.ToLower(text)
	if !isASCII(lower) {
		for _, w := range strings.FieldsFunc(lower, notWordRune) {
			if !yield(w) {
				return
			}
		}
		return
	}
	for i := 0; i < len(lower); {
		if !isWordASCII(lower[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(lower) && isWordASCII(lower[j]) {
			j++
		}
		if !yield(lower[i:j]) {
			return
		}
		i = j
	}
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// isWordASCII reports whether c is a lower-case ASCII letter or a digit.
func isWordASCII(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

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
