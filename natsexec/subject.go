package natsexec

import (
	"fmt"
	"strings"
)

// Placeholders of a subject template, each a whole token.
const (
	phProject  = "{project_id}"
	phChannel  = "{channel_id}"
	phFunction = "{function}"
)

// DefaultSubject is the subject template of [Options.Subject]: the family the
// seed names, one subject per function.
const DefaultSubject = "cmd.tool.{function}"

// subjectTemplate is a parsed subject template.
type subjectTemplate struct {
	tokens []string
}

// parseSubject checks a subject template: tokens separated by dots, each a
// literal without white space or wildcards, or a whole-token placeholder
// ({project_id}, {channel_id}, {function}); the subject must be of the
// cmd.tool.* family, in the seed's short form (cmd.tool.NAME…) or the full
// form of the platform's protocol (cg.VERSION.{project_id}.{channel_id}.
// cmd.tool.NAME…).
func parseSubject(s string) (*subjectTemplate, error) {
	tokens := strings.Split(s, ".")
	for i, t := range tokens {
		switch {
		case t == "":
			return nil, fmt.Errorf("subject %q: empty token %d", s, i+1)
		case t == phProject || t == phChannel || t == phFunction:
		case strings.ContainsAny(t, "{}"):
			return nil, fmt.Errorf("subject %q: token %q: a placeholder must be a whole token, one of %s, %s, %s", s, t, phProject, phChannel, phFunction)
		case strings.ContainsAny(t, "*> \t\r\n"):
			return nil, fmt.Errorf("subject %q: token %q: no wildcards or white space (a {placeholder} stands for a token)", s, t)
		}
	}
	family := tokens
	if tokens[0] == "cg" && len(tokens) > 4 {
		family = tokens[4:]
	}
	if len(family) >= 2 && family[0] == "cmd" && family[1] == "sys" {
		return nil, fmt.Errorf("subject %q: cmd.sys.* is the platform's own (its internal tools); a tool's target_subject must be cmd.tool.*", s)
	}
	if len(family) < 3 || family[0] != "cmd" || family[1] != "tool" {
		return nil, fmt.Errorf("subject %q: want a cmd.tool.* subject (cmd.tool.NAME, or cg.VERSION.{project_id}.{channel_id}.cmd.tool.NAME)", s)
	}
	return &subjectTemplate{tokens: tokens}, nil
}

// expand returns the subscription subject for function: {function} is the
// function's name, {project_id} and {channel_id} the given values or * when
// empty.
func (t *subjectTemplate) expand(function, project, channel string) string {
	out := make([]string, len(t.tokens))
	for i, tok := range t.tokens {
		switch tok {
		case phFunction:
			tok = function
		case phProject:
			tok = orStar(project)
		case phChannel:
			tok = orStar(channel)
		}
		out[i] = tok
	}
	return strings.Join(out, ".")
}

func orStar(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

// ids returns the project and channel ids a message's subject carries at the
// places of the placeholders ("" for a placeholder the template lacks).
func (t *subjectTemplate) ids(subject string) (project, channel string) {
	tokens := strings.Split(subject, ".")
	if len(tokens) != len(t.tokens) {
		return "", ""
	}
	for i, tok := range t.tokens {
		switch tok {
		case phProject:
			project = tokens[i]
		case phChannel:
			channel = tokens[i]
		}
	}
	return project, channel
}

// validToken reports whether s can be one token of a subject.
func validToken(s string) bool {
	return s != "" && !strings.ContainsAny(s, ".*> \t\r\n{}")
}
