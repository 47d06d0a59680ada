//! What a table's stored form leaves out (fields at their default value,
//! serde's `skip_serializing_if`, so a stored table stays small) and the
//! defaults of fields older tables lack.

/// Whether a millisecond count is zero.
pub(super) fn is_zero_ms(n: &u64) -> bool {
    *n == 0
}

/// Whether a count is zero.
pub(super) fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Whether a flag is off.
pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

/// Tables stored before they said their format are in format 1.
pub(super) fn first_format() -> u32 {
    1
}
