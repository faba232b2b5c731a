package toolcli

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// logged returns tool with one log line per call (a StreamTool when tool is
// one; a HintTool always, with the hints of tool if it has any). front names
// the protocol the calls come from.
func logged(tool runtime.Tool, logger *slog.Logger, front string) runtime.Tool {
	l := &logTool{tool: tool, logger: logger, front: front}
	if st, ok := tool.(runtime.StreamTool); ok {
		return &logStreamTool{logTool: l, stream: st}
	}
	return l
}

type logTool struct {
	tool   runtime.Tool
	logger *slog.Logger
	front  string
}

func (l *logTool) Load(ctx context.Context) (*document.OpenTool, error) { return l.tool.Load(ctx) }

// Hints passes on the hints of a runtime.HintTool (MCP's tool annotations).
func (l *logTool) Hints(function string) (document.Hints, bool) {
	if ht, ok := l.tool.(runtime.HintTool); ok {
		return ht.Hints(function)
	}
	return document.Hints{}, false
}

func (l *logTool) Call(ctx context.Context, name string, args json.RawMessage) (result json.RawMessage, err error) {
	start := time.Now()
	panicked := true
	defer func() {
		l.log(ctx, name, start, err, panicked, -1)
	}()
	result, err = l.tool.Call(ctx, name, args)
	panicked = false
	return result, err
}

type logStreamTool struct {
	*logTool
	stream runtime.StreamTool
}

func (l *logStreamTool) StreamCall(ctx context.Context, name string, args json.RawMessage, emit func(json.RawMessage) error) (err error) {
	start := time.Now()
	panicked := true
	items := 0
	defer func() {
		l.log(ctx, name, start, err, panicked, items)
	}()
	err = l.stream.StreamCall(ctx, name, args, func(item json.RawMessage) error {
		if err := emit(item); err != nil {
			return err
		}
		items++ // delivered, as far as the front can tell
		return nil
	})
	panicked = false
	return err
}

// log writes the line of a call: its function, duration and outcome, and for a
// stream the number of items the front took (items < 0: not a stream), not
// counting one it failed to send. Neither the arguments
// nor the result nor an error's message is logged: they may hold what the
// environment or the caller meant to keep out of logs; an invalid call lists
// the JSON paths of its violations only.
func (l *logTool) log(ctx context.Context, name string, start time.Time, err error, panicked bool, items int) {
	attrs := make([]slog.Attr, 0, 7)
	attrs = append(attrs, slog.String("front", l.front), slog.String("function", clip(name)),
		slog.Duration("duration", time.Since(start)))
	level := slog.LevelInfo
	var e *runtime.Error
	switch {
	case panicked:
		level = slog.LevelError
		attrs = append(attrs, slog.String("outcome", "panic"))
	case err == nil:
		attrs = append(attrs, slog.String("outcome", "ok"))
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		attrs = append(attrs, slog.String("outcome", "cancelled"))
	case errors.As(err, &e) && e.Code == runtime.CodeInvalidParams:
		var paths []string
		for _, v := range e.Violations() {
			paths = append(paths, clip(v.Path))
		}
		attrs = append(attrs, slog.String("outcome", "invalid"), slog.Any("paths", paths))
	default:
		level = slog.LevelWarn
		code := runtime.CodeToolError
		if e != nil && e.Code != 0 {
			code = e.Code
		}
		attrs = append(attrs, slog.String("outcome", "error"), slog.Int("code", code))
	}
	if items >= 0 {
		attrs = append(attrs, slog.Int("items", items))
	}
	l.logger.LogAttrs(context.Background(), level, "call", attrs...)
}

// clip shortens what a caller chose (a function's name, a path) to 128 bytes
// in the log.
func clip(s string) string {
	if len(s) > 128 {
		return s[:128] + "…"
	}
	return s
}
