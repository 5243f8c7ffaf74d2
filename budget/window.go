package budget

import "strings"

// DefaultContextWindow is the context window ContextWindow returns for a
// model it does not know: 8,192 tokens, the smallest window of any current
// chat model family (gpt-4, Llama 3, Gemma 2), so an unknown model is
// compacted early rather than overflowed. Override it with the engine's
// compact.WithContextWindow when the real window is known.
const DefaultContextWindow = 8_192

// contextWindows lists published context windows (input plus output tokens,
// as each provider documents the model's window) by model-name prefix.
// Names are normalized by normalizeWindowModel before matching.
var contextWindows = []prefixEntry[int]{
	// OpenAI.
	{"gpt-4o", 128_000},
	{"chatgpt-4o", 128_000},
	{"gpt-4.1", 1_047_576},
	{"gpt-4.5", 128_000},
	{"gpt-5", 400_000},
	{"gpt-5-chat", 128_000},
	{"gpt-oss", 131_072},
	{"o1", 200_000},
	{"o1-mini", 128_000},
	{"o1-preview", 128_000},
	{"o3", 200_000},
	{"o4-mini", 200_000},
	{"codex-mini", 200_000},
	{"gpt-4", 8_192},
	{"gpt-4-32k", 32_768},
	{"gpt-4-turbo", 128_000},
	{"gpt-4-1106", 128_000},
	{"gpt-4-0125", 128_000},
	{"gpt-4-vision", 128_000},
	{"gpt-3.5-turbo", 16_385},
	{"gpt-3.5-turbo-instruct", 4_096},
	{"text-embedding-3", 8_191},
	{"text-embedding-ada-002", 8_191},

	// Anthropic: every Claude 3, 3.5, 3.7, 4 and 4.x model has 200k.
	{"claude", 200_000},
	{"claude-2", 100_000},
	{"claude-2.1", 200_000},
	{"claude-2-1", 200_000},
	{"claude-instant", 100_000},

	// Google.
	{"gemini", 1_048_576},
	{"gemini-1.5-pro", 2_097_152},
	{"gemini-1.0", 32_760},
	{"gemini-pro", 32_760}, // the gemini-1.0-pro alias
	{"gemma-2", 8_192},
	{"gemma2", 8_192},
	{"gemma-3", 131_072},
	{"gemma3", 131_072},

	// Meta Llama, under the spellings used by Meta, Hugging Face, Ollama,
	// Groq and Bedrock. Llama 3 has 8k; 3.1, 3.2, 3.3 and 4 as commonly
	// served have 128k (Llama 4 Scout/Maverick publish more; hosts serve less).
	{"llama-2", 4_096},
	{"llama2", 4_096},
	{"llama-3", 8_192},
	{"llama3", 8_192},
	{"meta-llama-3", 8_192},
	{"llama-3.1", 131_072},
	{"llama3.1", 131_072},
	{"llama3-1", 131_072},
	{"meta-llama-3.1", 131_072},
	{"llama-3.2", 131_072},
	{"llama3.2", 131_072},
	{"llama3-2", 131_072},
	{"llama-3.3", 131_072},
	{"llama3.3", 131_072},
	{"llama3-3", 131_072},
	{"llama-4", 131_072},
	{"llama4", 131_072},

	// Mistral.
	{"mistral-large", 131_072},
	{"mistral-medium", 131_072},
	{"mistral-small", 131_072}, // Mistral Small 3.1 and later
	{"mistral-small-2402", 32_768},
	{"mistral-small-2409", 32_768},
	{"mistral-nemo", 131_072},
	{"open-mistral-nemo", 131_072},
	{"mistral-7b", 32_768},
	{"open-mistral-7b", 32_768},
	{"mistral", 32_768},
	{"ministral", 131_072},
	{"pixtral", 131_072},
	{"codestral", 262_144},
	{"mixtral-8x7b", 32_768},
	{"open-mixtral-8x7b", 32_768},
	{"mixtral-8x22b", 65_536},
	{"open-mixtral-8x22b", 65_536},

	// DeepSeek: V3, V3.1, V3.2 and R1 publish 128k (the hosted API capped
	// deepseek-chat/-reasoner at 64k before V3.1; it serves 128k now).
	{"deepseek", 131_072},
	{"deepseek-coder", 16_384},
	{"deepseek-coder-v2", 131_072},

	// Qwen: Qwen2.5 7B and larger 128k; the 0.5B, 1.5B and 3B models 32k.
	// Qwen3 open weights have a native 32k window (128k only with YaRN
	// scaling enabled), Qwen3-Coder 256k.
	{"qwen2.5", 131_072},
	{"qwen2.5-0.5b", 32_768},
	{"qwen2.5-1.5b", 32_768},
	{"qwen2.5-3b", 32_768},
	{"qwen2.5-coder", 32_768},
	{"qwen2.5-coder-7b", 131_072},
	{"qwen2.5-coder-14b", 131_072},
	{"qwen2.5-coder-32b", 131_072},
	{"qwen2", 32_768},
	{"qwen3", 32_768},
	{"qwen3-coder", 262_144},
	{"qwq", 131_072},
	{"qwen-max", 32_768},
	{"qwen-plus", 131_072},
	{"qwen-turbo", 1_000_000},

	// Others.
	{"command-r", 128_000},
	{"command-a", 256_000},
	{"grok-3", 131_072},
	{"grok-4", 256_000},
}

// normalizeWindowModel normalizes model for the window table: as
// normalizeModel, and ':' '_' ' ' become '-' ("llama3.1:8b" -> "llama3.1-8b").
func normalizeWindowModel(model string) string {
	m := normalizeModel(model)
	return strings.Map(func(r rune) rune {
		switch r {
		case ':', '_', ' ':
			return '-'
		}
		return r
	}, m)
}

// LookupContextWindow returns the published context window of model, in
// tokens, and ok=false (with 0) when the model is unknown.
//
// Matching is case-insensitive and by longest prefix, so dated variants
// ("claude-sonnet-4-20250514", "gpt-4o-2024-08-06") resolve to their family.
// A "provider/" prefix ("anthropic/claude-sonnet-4") is ignored, and so are
// leading dotted vendor segments as Bedrock writes them
// ("us.anthropic.claude-3-7-sonnet-20250219-v1:0").
func LookupContextWindow(model string) (int, bool) {
	m := normalizeWindowModel(model)
	for {
		if w, ok := longestPrefix(contextWindows, m); ok {
			return w, true
		}
		dot := strings.IndexByte(m, '.')
		if dot <= 0 || !isLetters(m[:dot]) {
			return 0, false
		}
		m = m[dot+1:]
	}
}

// ContextWindow returns the published context window of model, in tokens,
// or DefaultContextWindow when the model is unknown. Matching is as in
// LookupContextWindow.
func ContextWindow(model string) int {
	if w, ok := LookupContextWindow(model); ok {
		return w
	}
	return DefaultContextWindow
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}
