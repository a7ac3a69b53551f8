//! Validator: any tree the parser builds, even from text with syntax errors, is checked
//! without panicking, and every diagnostic's span lies inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| gdl_robust::assert_validates(text));
