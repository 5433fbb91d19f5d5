#ifndef ESSH_CNCURSESW_SHIM_H
#define ESSH_CNCURSESW_SHIM_H
/* ncurses wide-character API, seen from Swift. Only TerminalCurses imports this module.
   SwiftPM drops pkg-config's -D flags, so the wide API is switched on here. */
#define NCURSES_WIDECHAR 1
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* Declared by <wchar.h> only under _XOPEN_SOURCE, which SwiftPM removes. */
int wcwidth(wchar_t c);

/* C globals Swift 6 rejects, and macros Swift cannot import. */
static inline WINDOW *essh_stdscr(void) { return stdscr; }
static inline WINDOW *essh_curscr(void) { return curscr; }
static inline FILE *essh_stdin(void) { return stdin; }
static inline FILE *essh_stdout(void) { return stdout; }
static inline int essh_lines(void) { return LINES; }
static inline int essh_cols(void) { return COLS; }
static inline int essh_colors(void) { return COLORS; }
static inline int essh_color_pairs(void) { return COLOR_PAIRS; }
static inline int essh_key_f(int n) { return KEY_F(n); }
static inline void essh_getmaxyx(WINDOW *w, int *y, int *x) { int yy, xx; getmaxyx(w, yy, xx); *y = yy; *x = xx; }

static inline attr_t essh_a_normal(void) { return A_NORMAL; }
static inline attr_t essh_a_bold(void) { return A_BOLD; }
static inline attr_t essh_a_dim(void) { return A_DIM; }
static inline attr_t essh_a_reverse(void) { return A_REVERSE; }
static inline attr_t essh_a_underline(void) { return A_UNDERLINE; }

static inline mmask_t essh_wheel_mask(void) {
#if defined(BUTTON5_PRESSED)
    return BUTTON4_PRESSED | BUTTON5_PRESSED;
#else
    return BUTTON4_PRESSED;
#endif
}
static inline int essh_mouse_is_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int essh_mouse_is_wheel_down(mmask_t state) {
#if defined(BUTTON5_PRESSED)
    return (state & BUTTON5_PRESSED) != 0;
#else
    return 0;
#endif
}

/* One grapheme (a base character and up to four combining marks) at (y, x): setcchar + mvwadd_wch. */
static inline int essh_put_cell(int y, int x, const wchar_t *text, attr_t attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) == ERR) return ERR;
    return mvwadd_wch(stdscr, y, x, &cell);
}
#endif
