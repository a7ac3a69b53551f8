//! Parser: any text parses without panicking, and a text that parses without errors prints
//! (prefix and infix) to text that parses back to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| gdl_robust::assert_round_trip(text));
