#ifndef LECTERN_FRIBIDI_SHIM_H
#define LECTERN_FRIBIDI_SHIM_H
#include <stdint.h>
#include <stdlib.h>
#include <fribidi.h>

/// Resolves the embedding level of each character of one paragraph (Unicode Bidirectional
/// Algorithm rules P2-P3, X1-X10, W1-W7, N0-N2, I1-I2; line rules are left to the caller).
/// `direction`: 0 left-to-right, 1 right-to-left, 2 first strong character with a
/// left-to-right fallback, 3 first strong character with a right-to-left fallback.
/// Writes `length` levels; returns the resolved paragraph direction (0 or 1), or -1 when
/// FriBidi fails (out of memory).
static inline int lectern_fribidi_levels(const uint32_t *text, int length, int direction, int8_t *levels) {
    if (length <= 0) return direction == 1 || direction == 3;
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
    int result = -1;
    if (types && brackets) {
        fribidi_get_bidi_types(text, length, types);
        fribidi_get_bracket_types(text, length, types, brackets);
        FriBidiParType base = direction == 0 ? FRIBIDI_PAR_LTR
            : direction == 1 ? FRIBIDI_PAR_RTL
            : direction == 3 ? FRIBIDI_PAR_WRTL : FRIBIDI_PAR_WLTR;
        FriBidiLevel maximum = fribidi_get_par_embedding_levels_ex(types, brackets, length, &base,
                                                                   (FriBidiLevel *)levels);
        if (maximum > 0) result = FRIBIDI_IS_RTL(base) ? 1 : 0;
    }
    free(types);
    free(brackets);
    return result;
}

/// The mirrored form of `scalar` (e.g. `(` for `)`) when it has one, else `scalar`.
static inline uint32_t lectern_fribidi_mirror(uint32_t scalar) {
    FriBidiChar mirrored = scalar;
    return fribidi_get_mirror_char(scalar, &mirrored) ? mirrored : scalar;
}
/// Arabic joining and shaping of one paragraph whose scalars have the embedding `levels`
/// (from ``lectern_fribidi_levels``): writes to `shaped` each scalar's presentation form
/// (U+FE70–U+FEFF, U+FB50–U+FDFF), the lam-alef ligatures included — the lam of a ligature
/// becomes U+FEFF (FRIBIDI_CHAR_FILL), the alef the ligature. Scalars that do not change are
/// copied. Returns 0, or -1 when out of memory.
static inline int lectern_fribidi_shape(const uint32_t *text, int length, const int8_t *levels, uint32_t *shaped) {
    if (length <= 0) return 0;
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiArabicProp *joining = malloc(sizeof(FriBidiArabicProp) * (size_t)length);
    int result = -1;
    if (types && joining) {
        for (int index = 0; index < length; index++) shaped[index] = text[index];
        fribidi_get_bidi_types(text, length, types);
        fribidi_get_joining_types(text, length, joining);
        fribidi_join_arabic(types, length, (const FriBidiLevel *)levels, joining);
        fribidi_shape(FRIBIDI_FLAGS_ARABIC, (const FriBidiLevel *)levels, length, joining, shaped);
        result = 0;
    }
    free(types);
    free(joining);
    return result;
}
#endif
