package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUnwrap(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		body     string
		exit     int
		hasExit  bool
		timedOut bool
		elided   int
		openFile string
	}{
		{name: "mini", in: "<returncode>1</returncode>\n<output>\nboom\n</output>", body: "boom\n", exit: 1, hasExit: true},
		{name: "mini warning head tail", in: "<returncode>0</returncode>\n<warning>\ntoo long\n</warning><output_head>\nhead\n</output_head>\n<elided_chars>\n123 characters elided\n</elided_chars>\n<output_tail>\ntail\n</output_tail>",
			body: "head\n\ntail\n", hasExit: true, elided: 123},
		{name: "mini timeout", in: "The last command <command>sleep 99</command> timed out and has been killed.\nThe output of the command was:\n <output>\npartial\n</output>\nPlease try another command", body: "\npartial\n", timedOut: true},
		{name: "swe suffix", in: "344\n\n(Open file: /r/reproduce.py)\n(Current directory: /r)\nbash-$", body: "344\n", openFile: "/r/reproduce.py"},
		{name: "swe n/a", in: "x\n(Open file: n/a)\n(Current directory: /r)\nbash-$", body: "x"},
		{name: "swe timed out", in: "\nEXECUTION TIMED OUT\n(Open file: n/a)\n(Current directory: /r)\nbash-$", body: "\n", timedOut: true},
		{name: "swe no output", in: "Your command ran successfully and did not produce any output.\n(Open file: n/a)\n(Current directory: /r)\nbash-$", body: ""},
		{name: "exit code line", in: "error: x\nexit code 2", body: "error: x\nexit code 2", exit: 2, hasExit: true},
		{name: "exit status line", in: "fail\nExit status: 127\n", body: "fail\nExit status: 127\n", exit: 127, hasExit: true},
		{name: "process exited", in: "Process exited with code 3", body: "Process exited with code 3", exit: 3, hasExit: true},
		{name: "subprocess", in: "Command 'x' returned non-zero exit status 4.", body: "Command 'x' returned non-zero exit status 4.", exit: 4, hasExit: true},
		{name: "plain", in: "hello", body: "hello"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := unwrap(tc.in)
			assert.Equal(t, tc.body, e.body)
			assert.Equal(t, tc.hasExit, e.hasExit)
			assert.Equal(t, tc.exit, e.exit)
			assert.Equal(t, tc.timedOut, e.timedOut)
			assert.Equal(t, tc.elided, e.elided)
			assert.Equal(t, tc.openFile, e.openFile)
		})
	}
}
