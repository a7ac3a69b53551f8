//! The grounded game for the page's worker (grounding may take long), converted for
//! JavaScript: the logic is `gdl_core::grounded`.

use gdl_core::grounded::{GroundGame, GroundProgram};
use gdl_core::reasoner::Limits;
use wasm_bindgen::prelude::*;

/// A game and the engine `auto` picks for it, for the page's worker.
#[wasm_bindgen(js_name = GroundGame)]
pub struct JsGroundGame {
    inner: GroundGame,
}

#[wasm_bindgen(js_class = GroundGame)]
impl JsGroundGame {
    /// Loads `text` and picks the engine `auto` would (about a second at most).
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> std::result::Result<JsGroundGame, JsError> {
        let inner = GroundGame::load(text, Limits::default(), &crate::performance_now).map_err(crate::js_err)?;
        Ok(JsGroundGame { inner })
    }

    /// The engine `auto` picks, why, and the network's figures.
    #[wasm_bindgen(unchecked_return_type = "EngineChoice")]
    pub fn choice(&self) -> std::result::Result<JsValue, JsError> {
        crate::to_js(&self.inner.choice)
    }

    /// The full grounding with limits `scale` times the default, atoms printed in `syntax`
    /// (`"prefix"` or `"infix"`); `progress`, if given, is called with each stage's name as it
    /// starts (`groundStageNames`).
    pub fn ground(
        &self,
        syntax: &str,
        scale: u32,
        progress: Option<js_sys::Function>,
    ) -> std::result::Result<JsGroundProgram, JsError> {
        let syntax = gdl_core::play::text::syntax_named(syntax).map_err(crate::js_err)?;
        // A failing callback must not stop the grounding.
        let mut report = |stage: &str| {
            if let Some(f) = &progress {
                let _ = f.call1(&JsValue::NULL, &JsValue::from_str(stage));
            }
        };
        let inner = GroundProgram::new(&self.inner, syntax, scale as usize, &crate::performance_now, &mut report)
            .map_err(crate::js_err)?;
        Ok(JsGroundProgram { inner })
    }
}

/// The names of a grounding's stages, in the order they run: the names `ground`'s
/// `progress` is called with (the page's progress bar).
#[wasm_bindgen(js_name = groundStageNames, unchecked_return_type = "string[]")]
pub fn ground_stage_names() -> std::result::Result<JsValue, JsError> {
    let names: Vec<&str> = gdl_core::ground::stages::STAGES.iter().map(|s| s.0).collect();
    crate::to_js(&names)
}

/// What a grounding stopped by a limit at `scale` times the default limits may try next.
#[wasm_bindgen(js_name = largerLimits, unchecked_return_type = "LargerLimits")]
pub fn larger_limits(scale: u32) -> std::result::Result<JsValue, JsError> {
    crate::to_js(&gdl_core::grounded::larger_limits(scale as usize))
}

/// The ground program of a game, for the page's worker.
#[wasm_bindgen(js_name = GroundProgram)]
pub struct JsGroundProgram {
    inner: GroundProgram,
}

#[wasm_bindgen(js_class = GroundProgram)]
impl JsGroundProgram {
    /// Counts, relations, the pipeline's stages, the engine `auto` picks, warnings.
    #[wasm_bindgen(unchecked_return_type = "GroundSummary")]
    pub fn summary(&self) -> std::result::Result<JsValue, JsError> {
        crate::to_js(self.inner.summary())
    }

    pub fn atoms(&self) -> Vec<String> {
        self.inner.atoms()
    }

    pub fn keys(&self) -> Vec<String> {
        self.inner.keys()
    }

    /// Every rule's text, by rule number, in the syntax the program was grounded for.
    #[wasm_bindgen(js_name = ruleTexts)]
    pub fn rule_texts(&self) -> Vec<String> {
        self.inner.rule_texts()
    }

    pub fn heads(&self) -> Vec<u32> {
        self.inner.heads()
    }

    pub fn starts(&self) -> Vec<u32> {
        self.inner.starts()
    }

    pub fn literals(&self) -> Vec<u32> {
        self.inner.literals()
    }

    /// The game's factors as the network picture colours them: `{ofAtom, names}` (per atom its
    /// factor's number or -1; each number's name in words).
    #[wasm_bindgen(js_name = atomFactors, unchecked_return_type = "{ ofAtom: Int32Array; names: string[] }")]
    pub fn atom_factors(&self) -> std::result::Result<JsValue, JsError> {
        let (of_atom, names) = self.inner.atom_factors();
        let out = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| {
            js_sys::Reflect::set(&out, &key.into(), value).map_err(|_| JsError::new("cannot build the factors"))
        };
        set("ofAtom", &js_sys::Int32Array::from(&of_atom[..]))?;
        set("names", &crate::to_js(&names)?)?;
        Ok(out.into())
    }

    #[wasm_bindgen(js_name = ruleRelations)]
    pub fn rule_relations(&self) -> Vec<u32> {
        self.inner.rule_relations()
    }

    /// Per atom then per rule, 1 if it holds / fires: `atoms` bytes first, then `rules` bytes.
    pub fn evaluate(&self, fluents: Vec<String>, roles: Vec<String>, moves: Vec<String>) -> Vec<u8> {
        let v = self.inner.evaluate(&fluents, &roles, &moves);
        let mut out = v.atoms;
        out.extend(v.fires);
        out
    }

    #[wasm_bindgen(js_name = stageText)]
    pub fn stage_text(&self, name: &str) -> std::result::Result<String, JsError> {
        self.inner.stage_text(name).map_err(crate::js_err)
    }
}
