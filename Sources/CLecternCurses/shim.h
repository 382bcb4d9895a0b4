#ifndef LECTERN_CURSES_SHIM_H
#define LECTERN_CURSES_SHIM_H
/* SwiftPM drops the -D flags pkg-config gives, so the wide-character API is switched on here. */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* From <term.h>, which is not included: its macros (lines, columns…) would leak into Swift. */
extern int setupterm(const char *term, int filedes, int *errret);
extern int tigetnum(const char *capname);

/* Mutable globals are errors in Swift 6: read them through functions. */
static inline WINDOW *lectern_stdscr(void) { return stdscr; }
static inline int lectern_cols(void) { return COLS; }
static inline int lectern_lines(void) { return LINES; }
static inline int lectern_colors(void) { return COLORS; }
static inline int lectern_color_pairs(void) { return COLOR_PAIRS; }
static inline FILE *lectern_stdin(void) { return stdin; }
static inline FILE *lectern_stdout(void) { return stdout; }

/* Function-like macros Swift cannot see. */
static inline attr_t lectern_color_pair(int pair) { return (attr_t)COLOR_PAIR(pair); }
static inline int lectern_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int lectern_getmaxx(WINDOW *w) { return getmaxx(w); }

static inline attr_t lectern_a_normal(void) { return A_NORMAL; }
static inline attr_t lectern_a_bold(void) { return A_BOLD; }
static inline attr_t lectern_a_dim(void) { return A_DIM; }
static inline attr_t lectern_a_underline(void) { return A_UNDERLINE; }
static inline attr_t lectern_a_reverse(void) { return A_REVERSE; }
static inline attr_t lectern_a_standout(void) { return A_STANDOUT; }
static inline attr_t lectern_a_italic(void) { return A_ITALIC; }

static inline int lectern_key_resize(void) { return KEY_RESIZE; }
static inline int lectern_key_code_yes(void) { return KEY_CODE_YES; }

/* Draws UTF-8 text at the cursor with the given attributes and colour pair. */
static inline int lectern_put(int y, int x, const char *utf8, attr_t attributes, short pair) {
    attr_set(attributes, pair, NULL);
    return mvaddstr(y, x, utf8);
}
#endif
