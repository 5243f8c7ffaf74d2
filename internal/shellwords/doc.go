// Package shellwords splits shell command lines the way an agent's shell
// tool runs them: into tokens ([Lex]: words, control operators,
// redirections, here-documents and their bodies) and into simple commands
// ([Parse]). It handles quotes, escapes, comments, command substitutions,
// operators (&& || | ; & newline), redirections and here-documents. It is an
// approximation of POSIX sh, not a shell: there is no expansion, and odd
// input yields odd words, but it never fails, never panics and runs in time
// linear in its input.
//
// It is the one shell lexer of the module: the extractors read commands
// with it and internal/callpaths finds the paths a command names with it. It
// imports nothing of the module.
package shellwords
