package reclass

import (
	"regexp"
	"testing"
)

// TestSpaceIsRE2s checks Space against the expression \s for every byte.
func TestSpaceIsRE2s(t *testing.T) {
	re := regexp.MustCompile(`^\s$`)
	for c := 0; c < 256; c++ {
		if got, want := Space(byte(c)), re.MatchString(string([]byte{byte(c)})); got != want {
			t.Errorf("Space(%#x) = %v, \\s %v", c, got, want)
		}
	}
	if got := SkipSpace(" \t\n\f\rx \v"); got != "x \v" {
		t.Errorf("SkipSpace: %q", got)
	}
}

// TestWordIsRE2w checks Word against the expression \w for every byte.
func TestWordIsRE2w(t *testing.T) {
	re := regexp.MustCompile(`^\w$`)
	for c := 0; c < 256; c++ {
		if got, want := Word(byte(c)), re.MatchString(string([]byte{byte(c)})); got != want {
			t.Errorf("Word(%#x) = %v, \\w %v", c, got, want)
		}
	}
}
