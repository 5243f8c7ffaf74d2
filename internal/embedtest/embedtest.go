// Package embedtest is a deterministic, offline embedder for the tests,
// benchmarks and examples of this module: a hashed bag of synonym groups.
// Each word of a text (a run of letters and digits, lower-cased; common
// function words left out) is
// replaced by the head of its synonym group ("automobile" and "vehicle"
// by "car"), hashed into one of the vector's dimensions, and counted; so
// texts that share a meaning through synonyms land near each other
// without sharing a word, and texts without a word in common (up to hash
// collisions) are orthogonal. It is no model of language: it only makes
// semantic ranking testable without a network.
package embedtest

import (
	"context"
	"hash/fnv"
	"strings"
	"sync/atomic"
	"unicode"
)

// synonyms are the groups of words this embedder treats as one meaning;
// the first word of each group is its head.
var synonyms = [][]string{
	{"car", "automobile", "vehicle", "sedan", "drive", "drives"},
	{"dog", "puppy", "hound", "canine"},
	{"doctor", "physician", "clinic", "medic"},
	{"house", "home", "apartment", "flat"},
	{"job", "work", "employer", "career", "occupation"},
	{"holiday", "vacation", "trip", "travel"},
	{"money", "salary", "income", "pay"},
}

// stopWords are left out of a text's bag, as models weigh them little.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "i": true, "my": true, "me": true, "you": true,
	"your": true, "do": true, "does": true, "is": true, "are": true, "was": true,
	"what": true, "which": true, "where": true, "and": true, "or": true, "of": true,
	"to": true, "in": true, "on": true, "for": true, "with": true, "it": true,
	"that": true, "this": true, "please": true, "some": true, "about": true,
}

// heads maps each word of a synonym group to its group's head; built once,
// read only.
var heads = func() map[string]string {
	h := map[string]string{}
	for _, g := range synonyms {
		for _, w := range g {
			h[w] = g[0]
		}
	}
	return h
}()

// Embedder embeds texts as hashed bags of synonym groups. It implements
// langchaingo's embeddings.Embedder and embeddings.EmbedderClient (so
// embeddings.NewEmbedder accepts it as a client). It is safe for
// concurrent use. The zero value is not usable: use [New].
type Embedder struct {
	dim   int
	texts atomic.Int64
	calls atomic.Int64
}

// New returns an Embedder of vectors of dim dimensions (at least 1).
func New(dim int) *Embedder { return &Embedder{dim: max(dim, 1)} }

// Vector returns the embedding of text: per dimension, the number of the
// text's words (common function words left out) whose synonym head hashes
// to it. A text without words is
// the zero vector.
func (e *Embedder) Vector(text string) []float32 {
	v := make([]float32, e.dim)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if stopWords[w] {
			continue
		}
		if h, ok := heads[w]; ok {
			w = h
		}
		f := fnv.New32a()
		f.Write([]byte(w))
		v[f.Sum32()%uint32(e.dim)]++
	}
	return v
}

// EmbedDocuments returns the vectors of texts (see [Embedder.Vector]).
func (e *Embedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e.calls.Add(1)
	e.texts.Add(int64(len(texts)))
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = e.Vector(t)
	}
	return out, nil
}

// EmbedQuery returns the vector of text (see [Embedder.Vector]).
func (e *Embedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := e.EmbedDocuments(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// CreateEmbedding is EmbedDocuments, as an embeddings.EmbedderClient.
func (e *Embedder) CreateEmbedding(ctx context.Context, texts []string) ([][]float32, error) {
	return e.EmbedDocuments(ctx, texts)
}

// Texts returns how many texts the Embedder has embedded so far.
func (e *Embedder) Texts() int { return int(e.texts.Load()) }

// Calls returns how many calls (of any of its methods) it has served.
func (e *Embedder) Calls() int { return int(e.calls.Load()) }
