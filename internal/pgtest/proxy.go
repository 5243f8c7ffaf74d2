package pgtest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// Fault is what a [Proxy] does to the statement a rule matches.
type Fault int

const (
	// DropBeforeSend closes the connection once the client has sent the
	// statement, without passing it on: the server never runs it, and the
	// client cannot tell whether it did (it wrote the statement, then lost
	// the connection).
	DropBeforeSend Fault = iota + 1
	// DropAfterReply passes the statement on, waits until the server has
	// finished it (its ReadyForQuery: a statement outside a transaction is
	// committed) and closes the connection instead of passing the reply
	// on: the write is applied and the client sees a lost connection.
	DropAfterReply
	// RefuseConnect closes the next new connections at once, before the
	// startup: the client's pool fails to connect (its Nth counts
	// connections, not statements, and Match is ignored).
	RefuseConnect
)

// Rule arms one fault: the Nth statement (from 1) whose SQL contains
// Match, counted over every connection of the proxy from when the rule is
// armed. A simple query's SQL is its text; an extended-protocol exchange
// (up to its Sync) counts only if it executes something, and its SQL is
// that of the statements it binds. Each rule fires once.
type Rule struct {
	Match string
	Nth   int
	Fault Fault
}

// Proxy is a TCP proxy between a PostgreSQL client and server that
// understands the wire protocol enough to drop a connection at a chosen
// statement: the deterministic fault injection of the store's tests. It
// serves until the test ends.
type Proxy struct {
	target string
	ln     net.Listener
	mu     sync.Mutex
	rules  []*armed
	fired  int
	conns  map[net.Conn]struct{}
}

type armed struct {
	Rule
	seen int
}

// NewProxy listens on a loopback port and forwards each connection to the
// host and port of the URL dsn; it returns the proxy and dsn with its host
// replaced by the proxy's. The DSN must disable TLS (sslmode=disable), so
// the proxy sees the protocol. It closes when t ends.
func NewProxy(t testing.TB, dsn string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		t.Skip("skipping: the fault proxy needs a URL DSN (postgres://host:port/db)")
	}
	target := u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "5432")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("pgtest: proxy listen: %v", err)
	}
	p := &Proxy{target: target, ln: ln, conns: map[net.Conn]struct{}{}}
	go p.serve()
	t.Cleanup(p.close)
	q := u.Query()
	q.Set("sslmode", "disable")
	u.RawQuery = q.Encode()
	u.Host = ln.Addr().String()
	return p, u.String()
}

// Arm adds a rule.
func (p *Proxy) Arm(r Rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = append(p.rules, &armed{Rule: r})
}

// Disarm drops the rules that have not fired.
func (p *Proxy) Disarm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = nil
}

// Fired returns how many rules have fired.
func (p *Proxy) Fired() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fired
}

func (p *Proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

func (p *Proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if p.fire(true, "") == RefuseConnect {
			c.Close()
			continue
		}
		go p.handle(c)
	}
}

// fire counts a new connection (connect) or a statement's sql against
// the armed rules of its kind and returns the fault of the one that fires,
// or 0.
func (p *Proxy) fire(connect bool, sql string) Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, r := range p.rules {
		if (r.Fault == RefuseConnect) != connect || !connect && !strings.Contains(sql, r.Match) {
			continue
		}
		if r.seen++; r.seen == r.Nth {
			p.rules = append(p.rules[:i], p.rules[i+1:]...)
			p.fired++
			return r.Fault
		}
	}
	return 0
}

func (p *Proxy) track(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
}

func (p *Proxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
		c.Close()
	}
}

// handle relays one connection: the client's side message by message, a
// statement at a time; the server's side message by message, so that a
// DropAfterReply closes at the statement's ReadyForQuery.
func (p *Proxy) handle(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	p.track(client, server)
	defer p.untrack(client, server)
	s := &session{client: client, server: server, stmts: map[string]string{}, dropAt: make(chan struct{}, 1)}
	go s.relayServer()
	if err := s.startup(); err != nil {
		return
	}
	s.relayClient(p)
}

// session is one proxied connection.
type session struct {
	client, server net.Conn
	stmts          map[string]string // prepared statement name -> SQL
	dropAt         chan struct{}     // armed: close at the next ReadyForQuery
}

// startup relays the client's untyped startup message, answering an SSL
// or GSS encryption request with 'N' (not supported) itself.
func (s *session) startup() error {
	for {
		var hdr [8]byte
		if _, err := io.ReadFull(s.client, hdr[:]); err != nil {
			return err
		}
		n := int(binary.BigEndian.Uint32(hdr[:4]))
		if n < 8 || n > 1<<20 {
			return errors.New("pgtest: bad startup message")
		}
		code := binary.BigEndian.Uint32(hdr[4:])
		if code == 80877103 || code == 80877104 { // SSLRequest, GSSENCRequest
			if _, err := s.client.Write([]byte{'N'}); err != nil {
				return err
			}
			continue
		}
		rest := make([]byte, n-8)
		if _, err := io.ReadFull(s.client, rest); err != nil {
			return err
		}
		_, err := s.server.Write(append(hdr[:], rest...))
		return err
	}
}

// readMsg reads one typed protocol message.
func readMsg(r io.Reader) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := int(binary.BigEndian.Uint32(hdr[1:]))
	if n < 4 || n > 1<<30 {
		return 0, nil, fmt.Errorf("pgtest: bad message length %d", n)
	}
	msg := make([]byte, 5+n-4)
	copy(msg, hdr[:])
	if _, err := io.ReadFull(r, msg[5:]); err != nil {
		return 0, nil, err
	}
	return hdr[0], msg, nil
}

// cstrings splits a message body into its NUL-terminated strings.
func cstrings(body []byte) []string { return strings.Split(string(body), "\x00") }

// relayClient passes the client's messages on a statement at a time: a
// simple query, or an extended exchange up to its Sync.
func (s *session) relayClient(p *Proxy) {
	var buf bytes.Buffer
	var sql []string
	executes := false
	for {
		typ, msg, err := readMsg(s.client)
		if err != nil {
			return
		}
		buf.Write(msg)
		body := msg[5:]
		switch typ {
		case 'P': // Parse: name, query
			if f := cstrings(body); len(f) >= 2 {
				s.stmts[f[0]] = f[1]
				sql = append(sql, f[1])
			}
			continue
		case 'B': // Bind: portal, statement
			if f := cstrings(body); len(f) >= 2 {
				sql = append(sql, s.stmts[f[1]])
			}
			continue
		case 'E':
			executes = true
			continue
		case 'Q':
			sql, executes = append(sql, cstrings(body)[0]), true
		case 'S', 'X':
		default:
			continue // Describe, Close, Flush...: with the exchange
		}
		var f Fault
		if executes {
			f = p.fire(false, strings.Join(sql, "\n"))
		}
		if f == DropBeforeSend {
			return
		}
		if f == DropAfterReply {
			s.dropAt <- struct{}{}
		}
		if _, err := s.server.Write(buf.Bytes()); err != nil {
			return
		}
		buf.Reset()
		sql, executes = sql[:0], false
	}
}

// relayServer passes the server's messages on, closing both sides at the
// ReadyForQuery that ends an exchange armed with DropAfterReply.
func (s *session) relayServer() {
	defer s.client.Close()
	defer s.server.Close()
	for {
		typ, msg, err := readMsg(s.server)
		if err != nil {
			return
		}
		if typ == 'Z' {
			select {
			case <-s.dropAt:
				return
			default:
			}
		}
		if _, err := s.client.Write(msg); err != nil {
			return
		}
	}
}
