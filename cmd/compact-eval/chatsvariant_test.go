package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestChatVariantFlags: -chathistory and -chattalk reach the replays
// through the context; an unknown history is an error.
func TestChatVariantFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-chats", "x", "-chathistory", "langchaingo", "-chattalk"}, io.Discard)
	require.NoError(t, err)
	require.Equal(t, chatVariant{history: chatHistoryLangchain, talkative: true}, cfg.chatVar)
	v := chatVariantOf(withChatVariant(context.Background(), cfg.chatVar))
	require.Equal(t, cfg.chatVar, v)
	require.Len(t, v.memoryOptions(), 1)
	require.Equal(t, chatVariant{}, chatVariantOf(context.Background()))
	require.Empty(t, chatVariantOf(context.Background()).memoryOptions())

	_, err = parseFlags([]string{"-chats", "x", "-chathistory", "redis"}, io.Discard)
	require.ErrorContains(t, err, "-chathistory")

	out := v.reply(7, "Sounds good.")
	require.True(t, strings.HasPrefix(out, "Sounds good.\nHere are a few more thoughts (reply 7)"))
	require.Equal(t, "Sounds good.", chatVariant{}.reply(7, "Sounds good."))
}
