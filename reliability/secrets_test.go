package reliability

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store/sqlitestore"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	"github.com/tmc/langchaingo/schema"
)

// secretRound is one tool round of the secret conversation: the command an
// agent ran and the output it got, with secrets inside.
type secretRound struct {
	tool, args, output string
}

// secretRounds plants every secret of the corpus in realistic tool outputs
// and tool arguments: dumps of .env and credential files, git remotes,
// verbose curl, grep hits, tracebacks, config files.
func secretRounds() []secretRound {
	var env strings.Builder
	for _, s := range secretCorpus() {
		env.WriteString(s.text + "\n")
	}
	return []secretRound{
		{"bash", `{"command": "cat .env"}`, "DB_PASSWORD=" + fakeEnvPassword + "\nSTRIPE_SECRET_KEY=" + fakeStripeKey + "\nAWS_SECRET_ACCESS_KEY=" + fakeAWSSecretKey + "\nexport OPENAI_API_KEY=" + fakeOpenAIProj + "\nDATABASE_URL=postgres://appuser:" + fakeDBPassword + "@db.internal:5432/prod\n"},
		{"bash", `{"command": "cat ~/.aws/credentials"}`, "[default]\naws_access_key_id = " + fakeAWSAccessKey + "\naws_secret_access_key = " + fakeAWSCredsKey + "\nregion = eu-west-1\n"},
		{"bash", `{"command": "grep -rn aws_secret ~/.aws"}`, "/root/.aws/credentials:3:aws_secret_access_key = " + fakeAWSCredsKey + "\n"},
		{"read_file", `{"path": "config/settings.json"}`, "{\n  \"service\": \"billing\",\n  \"api_key\": \"" + fakeJSONSecret + "\",\n  \"slack\": \"" + fakeSlackToken + "\"\n}\n"},
		{"bash", `{"command": "git remote -v"}`, "origin\thttps://x-access-token:" + fakeGHPToken + "@github.com/acme/app.git (fetch)\norigin\thttps://x-access-token:" + fakeGHPToken + "@github.com/acme/app.git (push)\n"},
		{"bash", `{"command": "curl -v https://api.example.com/v1/me"}`, "> GET /v1/me HTTP/1.1\n> Host: api.example.com\n> Authorization: Bearer " + fakeJWT + "\n>\n< HTTP/1.1 401 Unauthorized\n{\"error\": \"invalid token\"}\n"},
		{"bash", `{"command": "cat ~/.ssh/id_ed25519 deploy/id_rsa"}`, "-----BEGIN OPENSSH PRIVATE KEY-----\n" + fakeKeyBody + "\nQyNTUxOQAAACDx7kR9\n-----END OPENSSH PRIVATE KEY-----\n-----BEGIN RSA PRIVATE KEY-----\n" + fakeRSABody + "\nabcdefghijklmnop\n-----END RSA PRIVATE KEY-----\n"},
		{"bash", `{"command": "grep -rn api_key src/"}`, "src/llm.py:3:openai.api_key = " + fakeOpenAIKey + "\nsrc/claude.py:8:client = Anthropic(api_key=" + fakeAnthropicKey + ")\nsrc/gh.py:2:TOKEN = \"" + fakeGHPatToken + "\"\n"},
		{"bash", `{"command": "python manage.py migrate"}`, "Traceback (most recent call last):\n  File \"manage.py\", line 22, in <module>\nsqlalchemy.exc.OperationalError: (psycopg2.OperationalError) could not connect to postgres://appuser:" + fakeDBPassword + "@db.internal:5432/prod\n"},
		{"bash", `{"command": "docker compose config"}`, "services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_PASSWORD=" + fakeComposePass + "\n      - POSTGRES_USER=app\n"},
		{"http_get", `{"url": "https://deploy:` + fakeURLPassword + `@registry.example.com/v2/"}`, "fetching https://deploy:" + fakeURLPassword + "@registry.example.com/v2/\n200 OK\n"},
		{"bash", `{"command": "env | sort"}`, "HOME=/root\nSLACK_BOT_TOKEN=" + fakeSlackToken + "\nGITHUB_TOKEN=" + fakeGHPatToken + "\n" + env.String()},
		{"bash", `{"command": "export OPENAI_API_KEY=` + fakeOpenAIProj + ` && curl -H 'Authorization: Bearer ` + fakeOpenAIKey + `' https://api.openai.com/v1/models"}`, "{\"object\": \"list\", \"data\": []}\n"},
		{"bash", `{"command": "docker run -e DB_PASSWORD=` + fakeEnvPassword + ` -e AWS_SECRET_ACCESS_KEY=` + fakeAWSSecretKey + ` app:latest"}`, "starting app... ok\n"},
	}
}

// secretUserMessages are user messages that carry secrets.
func secretUserMessages() []string {
	return []string{
		"Deploy the app. Use the GitHub token " + fakeGHPToken + " to push, and make sure you never print it.",
		"The Slack bot token is " + fakeSlackToken + "; we decided to post the release notes to #deploys.",
		"Here is the .env you need:\nDB_PASSWORD=" + fakeEnvPassword + "\nOPENAI_API_KEY=" + fakeOpenAIProj + "\nAlways load it with python-dotenv.",
		"Remember: the database is postgres://appuser:" + fakeDBPassword + "@db.internal:5432/prod and the AWS key is " + fakeAWSAccessKey + ".",
		"Why does the request with Authorization: Bearer " + fakeJWT + " fail?",
		"Use this key: -----BEGIN RSA PRIVATE KEY-----\n" + fakeRSABody + "\nabcdefghijklmnop\n-----END RSA PRIVATE KEY-----\nthen continue.",
	}
}

// secretConversation interleaves the secret rounds and messages with real
// tool rounds of the trajectories, so that compaction has work to do.
func secretConversation(t testing.TB) []llms.MessageContent {
	names, convs := loadTrajectories(t)
	filler := toolSamples(convs, names)
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a deployment agent with shell access."),
	}
	users := secretUserMessages()
	rounds := secretRounds()
	call := 0
	addRound := func(tool, args, output string) {
		call++
		id := fmt.Sprintf("call_%d", call)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: tool, Arguments: args}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: tool, Content: output}}})
	}
	for i := 0; i < len(rounds) || i < len(users); i++ {
		if i < len(users) {
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, users[i]))
		}
		if i < len(rounds) {
			r := rounds[i]
			addRound(r.tool, r.args, r.output)
		}
		for k := 0; k < 3; k++ {
			f := filler[(i*3+k)%len(filler)]
			addRound(f.name, f.args, f.output)
		}
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, "Continuing."))
	}
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, "Now write the release notes."))
	return msgs
}

// scanDerived scans the messages of out that are not verbatim copies of
// input messages (nor visibly cut copies of one): the summary message and
// the masked tool outputs.
func scanDerived(l *leakCounter, surface string, in, out []llms.MessageContent) {
	for i, m := range out {
		verbatim := false
		for _, o := range in {
			if sameContent(m, withoutNilParts(o)) || (isCut(m) && cutFrom(textOf(m), textOf(o))) {
				verbatim = true
				break
			}
		}
		if !verbatim {
			l.scan(surface, fmt.Sprintf("output message %d (%s)", i, m.Role), textOf(m))
		}
	}
}

// scanSession scans a session's summary chain and its persisted JSON form.
func scanSession(l *leakCounter, prefix string, s *compact.Session) {
	for i, r := range s.Summaries() {
		b, _ := json.Marshal(r)
		l.scan(prefix+": summary records", fmt.Sprintf("record %d (%s)", i, r.Mode), string(b))
	}
	st, _ := s.MarshalJSON()
	l.scan(prefix+": persisted session JSON", "Session.MarshalJSON", string(st))
}

// eventRecorder collects events and scans them.
type eventRecorder struct {
	mu     sync.Mutex
	events []compact.Event
}

func (r *eventRecorder) observe(e compact.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// dropped returns how many events dropped (summarized) messages.
func (r *eventRecorder) dropped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.Dropped > 0 {
			n++
		}
	}
	return n
}

func (r *eventRecorder) scan(l *leakCounter, surface string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, e := range r.events {
		b, _ := json.Marshal(e)
		txt := string(b)
		if e.Err != nil {
			txt += "\n" + e.Err.Error()
		}
		l.scan(surface, fmt.Sprintf("event %d", i), txt)
	}
	return len(r.events)
}

// syncBuffer is a bytes.Buffer safe for concurrent writes (slog handlers
// may be called from several goroutines).
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// openAIServer is an httptest server speaking the chat completions API. It
// records every request body and answers with reply(body's user prompt).
type openAIServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newOpenAIServer(t testing.TB, reply func(n int, prompt string) string) *openAIServer {
	s := &openAIServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		n := len(s.bodies)
		s.mu.Unlock()
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		var prompt strings.Builder
		for _, m := range req.Messages {
			if m.Role == "user" {
				b, _ := json.Marshal(m.Content)
				var s string
				if json.Unmarshal(b, &s) == nil {
					prompt.WriteString(s)
				} else {
					prompt.Write(b)
				}
			}
		}
		resp := map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": reply(n, prompt.String())}}},
			"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *openAIServer) recorded() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.bodies...)
}

// TestSecretLeaks plants the secret corpus in tool outputs, tool
// arguments and user messages of a conversation and compacts it, turn by
// turn, with the rule-based summarizer and with the LLM summarizer (the
// real langchaingo OpenAI client against an httptest server whose model
// parrots its input), then looks for every secret in everything compaction
// derives. Verbatim copies of input messages (the preserved tail, the
// latest user message) are the user's own data and are not scanned. Leaks
// must be 0; a failure names the surface and the secret's form.
func TestSecretLeaks(t *testing.T) {
	conv := secretConversation(t)
	leaks := newLeakCounter()

	// Surface: the extractors, per tool output.
	reg := extractors.Default()
	calls := extractors.CallsByID(conv)
	for i, m := range conv {
		for _, p := range m.Parts {
			r, ok := p.(llms.ToolCallResponse)
			if !ok {
				continue
			}
			s := reg.Extract(extractors.ResolveCall(r, calls), r.Content)
			all := extractors.Format(s) + "\n" + strings.Join(s.KeyFacts, "\n")
			for k, v := range s.Metadata {
				all += "\n" + k + "=" + v
			}
			l := fmt.Sprintf("message %d (%s %s)", i, calls[r.ToolCallID].Name, calls[r.ToolCallID].Arguments)
			leaks.scan("extractors: Registry.Extract", l, all)
		}
	}
	// Surface: the rule-based digest of the whole conversation.
	d := reg.Digest(conv, extractors.Digest{})
	for _, cap := range []int{100, 500, 1 << 20} {
		leaks.scan("extractors: Digest.Render", fmt.Sprintf("Render(%d)", cap), d.Render(cap, nil))
	}
	dl, _ := json.Marshal(d)
	leaks.scan("extractors: Digest lists", "Digest", string(dl))

	for _, window := range []int{6_000, 16_000} {
		// Surfaces: compaction with the rule-based summarizer.
		t.Run(fmt.Sprintf("rule/window=%d", window), func(t *testing.T) {
			var evs eventRecorder
			c, err := compact.New(compact.WithContextWindow(window), onEvent(evs.observe))
			require.NoError(t, err)
			s := compact.NewSession("secrets-rule")
			compactions := 0
			for k := 2; k <= len(conv); k++ {
				res := compactChecked(t, c, s, conv[:k])
				require.NotNil(t, res)
				if res.Compacted {
					compactions++
				}
				scanDerived(leaks, "rule: compacted context", conv[:k], res.Messages)
			}
			scanSession(leaks, "rule", s)
			n := evs.scan(leaks, "rule: events")
			require.Positive(t, compactions)
			t.Logf("rule-based: %d compactions, %d events", compactions, n)
		})

		// Surfaces: compaction with the LLM summarizer over HTTP.
		t.Run(fmt.Sprintf("llm/window=%d", window), func(t *testing.T) {
			srv := newOpenAIServer(t, func(n int, prompt string) string {
				if n%4 == 0 {
					return "I can't summarize that. " + prompt[:min(len(prompt), 400)]
				}
				p := prompt
				if len(p) > 3000 {
					p = p[len(p)-3000:]
				}
				return summaryJSON("Echo: "+p, strings.Split(p, "\n")[0])
			})
			model, err := openai.New(openai.WithToken("test-token"), openai.WithBaseURL(srv.URL+"/v1"), openai.WithModel("gpt-4o-mini"))
			require.NoError(t, err)
			var logs syncBuffer
			logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			var evs eventRecorder
			c, err := compact.New(compact.WithContextWindow(window), onEvent(evs.observe),
				compact.WithCustomSummarizer(llmsummary.New([]llms.Model{model}, llmsummary.WithLogger(logger))))
			require.NoError(t, err)
			s := compact.NewSession("secrets-llm")
			for k := 2; k <= len(conv); k++ {
				res := compactChecked(t, c, s, conv[:k])
				require.NotNil(t, res)
				scanDerived(leaks, "llm: compacted context", conv[:k], res.Messages)
			}
			scanSession(leaks, "llm", s)
			n := evs.scan(leaks, "llm: events")
			bodies := srv.recorded()
			if evs.dropped() > 0 {
				require.NotEmpty(t, bodies, "messages were dropped but the summarizer model was never called")
			}
			for i, b := range bodies {
				leaks.scan("llm: HTTP request body (raw)", fmt.Sprintf("request %d", i), string(b))
				strs, err := jsonStrings(b)
				require.NoError(t, err)
				leaks.scan("llm: HTTP request body (decoded)", fmt.Sprintf("request %d", i), strings.Join(strs, "\n"))
			}
			out := logs.String()
			if len(bodies) >= 4 {
				require.NotEmpty(t, out, "the summarizer logged nothing: the invalid replies were not seen")
			}
			leaks.scan("llm: summarizer logs (slog)", "JSON log", out)
			t.Logf("LLM: %d requests, %d events, %d bytes of logs", len(bodies), n, len(out))
		})
	}

	// Surface: a recording llms.Model, the messages exactly as passed to
	// GenerateContent (no HTTP encoding in between).
	t.Run("llm-recorded", func(t *testing.T) {
		rec := &recordingModel{fn: echoSummary}
		c, err := compact.New(compact.WithContextWindow(6_000), compact.WithSummarizer(rec))
		require.NoError(t, err)
		s := compact.NewSession("secrets-recorded")
		for k := 2; k <= len(conv); k++ {
			res := compactChecked(t, c, s, conv[:k])
			require.NotNil(t, res)
			scanDerived(leaks, "llm-recorded: compacted context", conv[:k], res.Messages)
		}
		calls := rec.recorded()
		require.NotEmpty(t, calls)
		for i, msgs := range calls {
			for _, m := range msgs {
				leaks.scan("llm-recorded: GenerateContent messages", fmt.Sprintf("call %d %s", i, m.Role), textOf(m))
			}
		}
	})

	// Surfaces: what middleware.Wrap sends to the wrapped model, its logs
	// and its observer's CallInfo (with the compaction events).
	t.Run("middleware", func(t *testing.T) {
		var logs syncBuffer
		logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		sum := &recordingModel{fn: echoSummary}
		c, err := compact.New(compact.WithContextWindow(6_000),
			compact.WithCustomSummarizer(llmsummary.New([]llms.Model{sum}, llmsummary.WithLogger(logger))))
		require.NoError(t, err)
		var infos []middleware.CallInfo
		var mu sync.Mutex
		agent := &recordingModel{fn: func([]llms.MessageContent) string { return "ok" }}
		m := middleware.Wrap(agent, c, middleware.WithLogger(logger), middleware.WithObserver(func(i middleware.CallInfo) {
			mu.Lock()
			infos = append(infos, i)
			mu.Unlock()
		}))
		ctx := middleware.WithSession(context.Background(), "secrets-middleware")
		for k := 2; k <= len(conv); k++ {
			_, err := m.GenerateContent(ctx, conv[:k])
			require.NoError(t, err)
		}
		sent := agent.recorded()
		require.Len(t, sent, len(conv)-1)
		for k, msgs := range sent {
			scanDerived(leaks, "middleware: context sent to the model", conv[:k+2], msgs)
		}
		for i, info := range infos {
			b, _ := json.Marshal(info)
			leaks.scan("middleware: CallInfo (observer)", fmt.Sprintf("call %d", i), string(b)+fmt.Sprint(info.Err))
		}
		require.NotEmpty(t, logs.String())
		leaks.scan("middleware: logs (slog)", "JSON log", logs.String())
		for i, msgs := range sum.recorded() {
			for _, msg := range msgs {
				leaks.scan("middleware: summarizer request", fmt.Sprintf("call %d", i), textOf(msg))
			}
		}
	})

	// Surfaces: memory.Memory on the SQLite store: the loaded context, the
	// stored state and summaries (the database file), its logs.
	t.Run("memory", func(t *testing.T) {
		var logs syncBuffer
		logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c, err := compact.New(compact.WithContextWindow(5_000),
			compact.WithCustomSummarizer(llmsummary.New([]llms.Model{&recordingModel{fn: echoSummary}}, llmsummary.WithLogger(logger))))
		require.NoError(t, err)
		path := filepath.Join(t.TempDir(), "secrets.db")
		st, err := sqlitestore.Open(path)
		require.NoError(t, err)
		defer st.Close()
		m := memory.New(c, memory.WithStore(st), memory.WithSessionID("secrets"), memory.WithReturnMessages(true), memory.WithLogger(logger))
		ctx := context.Background()
		var turns []memTurn
		users, rounds := secretUserMessages(), secretRounds()
		for i := 0; i < 3*len(rounds); i++ {
			r := rounds[i%len(rounds)]
			turns = append(turns, memTurn{input: users[i%len(users)], output: "Done.", steps: []schema.AgentStep{{
				Action:      schema.AgentAction{Tool: r.tool, ToolInput: r.args, Log: "calling " + r.tool, ToolID: fmt.Sprintf("call_s%d", i)},
				Observation: r.output,
			}}})
		}
		for i, tr := range turns {
			require.NoError(t, tr.save(ctx, m))
			v, err := m.LoadMemoryVariables(ctx, nil)
			require.NoError(t, err)
			hist, err := m.ChatHistory().Messages(ctx)
			require.NoError(t, err)
			loaded, _ := v["history"].([]llms.ChatMessage)
			scanDerived(leaks, "memory: loaded context", memory.Contents(hist), memory.Contents(loaded))
			require.NoError(t, checkMemory(ctx, c, m, turns[:i+1], loaded))
		}
		recs, err := m.Records(ctx)
		require.NoError(t, err)
		require.NotEmpty(t, recs, "no compaction: the test did not exercise the summary chain")
		db, err := sql.Open("sqlite", path)
		require.NoError(t, err)
		defer db.Close()
		for _, q := range []string{"SELECT engine FROM compact_sessions", "SELECT summary || record FROM compact_summaries"} {
			rows, err := db.Query(q)
			require.NoError(t, err)
			for rows.Next() {
				var b []byte
				require.NoError(t, rows.Scan(&b))
				leaks.scan("memory: SQLite state and summaries", q, string(b))
			}
			require.NoError(t, rows.Err())
			rows.Close()
		}
		leaks.scan("memory: logs (slog)", "JSON log", logs.String())
	})

	leaks.report(t)
}
