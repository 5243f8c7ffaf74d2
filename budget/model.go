package budget

import "strings"

// normalizeModel lowercases a model name, trims spaces, drops a
// "provider/" prefix (the last "/" wins, as in "openrouter/openai/gpt-4o")
// and a fine-tune "ft:" prefix.
func normalizeModel(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	m = strings.TrimPrefix(m, "ft:")
	return m
}

// prefixEntry maps a model-name prefix to a value.
type prefixEntry[T any] struct {
	prefix string
	value  T
}

// longestPrefix returns the value of the longest prefix of name in table.
// A prefix that ends in a digit does not match when name continues with a
// digit ("o1" does not match "o10", "gpt-4" does not match "gpt-40").
func longestPrefix[T any](table []prefixEntry[T], name string) (T, bool) {
	var best T
	bestLen := -1
	for _, e := range table {
		p := e.prefix
		if len(p) <= bestLen || !strings.HasPrefix(name, p) {
			continue
		}
		if len(name) > len(p) && isDigit(p[len(p)-1]) && isDigit(name[len(p)]) {
			continue
		}
		best, bestLen = e.value, len(p)
	}
	return best, bestLen >= 0
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// modelEncodings maps OpenAI model families to their tokenizer.
var modelEncodings = []prefixEntry[string]{
	{"gpt-4o", EncodingO200k},
	{"chatgpt-4o", EncodingO200k},
	{"gpt-4.1", EncodingO200k},
	{"gpt-4.5", EncodingO200k},
	{"gpt-5", EncodingO200k},
	{"gpt-oss", EncodingO200k}, // o200k_harmony: o200k_base plus special tokens
	{"o1", EncodingO200k},
	{"o3", EncodingO200k},
	{"o4", EncodingO200k},
	{"codex-mini", EncodingO200k},
	{"computer-use-preview", EncodingO200k},
	{"gpt-4", EncodingCL100k},
	{"gpt-3.5", EncodingCL100k},
	{"text-embedding-3", EncodingCL100k},
	{"text-embedding-ada-002", EncodingCL100k},
}

// EncodingForModel returns the tokenizer encoding used for model:
// EncodingO200k ("o200k_base") for gpt-4o, gpt-4o-mini, gpt-4.1(-mini/-nano),
// gpt-4.5, gpt-5(-mini/-nano), o1, o3 and o4-mini; EncodingCL100k
// ("cl100k_base") for gpt-4, gpt-4-turbo, gpt-3.5-turbo and the
// text-embedding-3 models; EncodingEstimate ("estimate") for every other
// model, including those without a public tokenizer (Claude, Gemini, Llama,
// Mistral, DeepSeek, Qwen) and unknown names.
//
// Matching is case-insensitive, by longest prefix, so dated and suffixed
// variants ("gpt-4o-2024-08-06") resolve to their family; a "provider/"
// prefix ("openai/gpt-4o") and a fine-tune "ft:" prefix are ignored.
func EncodingForModel(model string) string {
	if enc, ok := longestPrefix(modelEncodings, normalizeModel(model)); ok {
		return enc
	}
	return EncodingEstimate
}
