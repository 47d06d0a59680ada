//! The rule sets of the presets.

use super::options::{
    BockSet, BockStacking, BockTrigger, Dulle, Extra, ExtraSet, PigletsWhen, Preset, ReDeadline, ReKontra, Rules,
    SoloPriority, SoloSet, WeddingRule,
};
use crate::solo::SoloKind;

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::Ddv)
    }
}

impl Rules {
    /// The rule set of a preset.
    ///
    /// ```
    /// use doko_engine::{Preset, Rules};
    /// let r = Rules::preset(Preset::Casual);
    /// assert!(r.poverty && r.piglets && r.soloist_leads);
    /// assert_eq!(r.get("compulsory_solos").unwrap(), "0");
    /// ```
    pub fn preset(p: Preset) -> Rules {
        let ddv = Rules::ddv();
        match p {
            Preset::Ddv => ddv,
            Preset::Casual => {
                let mut extra = ddv.extra_points;
                extra.insert(Extra::FoxLastTrick);
                Rules {
                    preset: Preset::Casual,
                    poverty: true,
                    piglets: true,
                    soloist_leads: true,
                    extra_points: extra,
                    compulsory_solos: 0,
                    ..ddv
                }
            }
            Preset::Sharp => Rules { preset: Preset::Sharp, nines: false, mandatory_announcement: Some(30), ..ddv },
            Preset::Freedoko => {
                // FreeDoko's hard-coded defaults (src/party/rule.cpp,
                // Rule::reset_to_hardcoded)
                let mut extra = ddv.extra_points;
                extra.insert(Extra::FoxLastTrick);
                extra.insert(Extra::CharlieCaught);
                let mut all = ddv.solos;
                all.insert(SoloKind::Kings);
                let mut tie = BockSet::default();
                tie.insert(BockTrigger::Tie);
                Rules {
                    preset: Preset::Freedoko,
                    dulle: Dulle::SecondWins,
                    solos: all,
                    soloist_leads: true,
                    poverty: true,
                    piglets: true,
                    throw_in_nines: Some(5),
                    re_kontra: ReKontra::Doubles,
                    extra_points: extra,
                    compulsory_solos: 0,
                    games_per_session: 80,
                    bock: true,
                    bock_triggers: tie,
                    bock_stacking: BockStacking::Stack,
                    ..ddv
                }
            }
        }
    }

    /// The DDV tournament rules, which every other preset changes in a few
    /// options.
    fn ddv() -> Rules {
        let mut solos = SoloSet::default();
        for k in SoloKind::ALL {
            if k != SoloKind::Kings {
                solos.insert(k);
            }
        }
        let mut extra = ExtraSet::default();
        for e in [Extra::AgainstTheElders, Extra::Doppelkopf, Extra::Fox, Extra::Charlie] {
            extra.insert(e);
        }
        let mut bock_triggers = BockSet::default();
        for t in [BockTrigger::Tie, BockTrigger::LostRe, BockTrigger::LostKontra] {
            bock_triggers.insert(t);
        }
        Rules {
            preset: Preset::Ddv,
            nines: true,
            dulle: Dulle::FirstWins,
            dullen: true,
            solos,
            soloist_leads: false,
            wedding: WeddingRule::FirstForeign,
            wedding_choose: false,
            poverty: false,
            poverty_max_trumps: 3,
            poverty_fox_counts: true,
            poverty_return_trumps: true,
            piglets: false,
            superpiglets: false,
            piglets_first_only: false,
            piglets_when: PigletsWhen::Deal,
            piglets_announce: false,
            half_chicken: false,
            genscher: false,
            black_sow: false,
            throw_in_nines: None,
            throw_in_kings: None,
            throw_in_low_trumps: None,
            throw_in_low_points: None,
            re_kontra: ReKontra::PlusTwo,
            extra_points: extra,
            mandatory_announcement: None,
            mandatory_further: false,
            compulsory_solos: 1,
            games_per_session: 24,
            bock: false,
            turn_timeout: 0,
            solo_double: false,
            solo_priority: SoloPriority::First,
            announce_on_turn: false,
            re_deadline: ReDeadline::BeforeSecondCard,
            bock_triggers,
            bock_stacking: BockStacking::Extend,
            coach: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::KEYS;

    #[test]
    fn sharp_and_freedoko_differ_where_they_should() {
        let d = Rules::preset(Preset::Ddv);
        let differs = |p: Preset| -> Vec<&str> {
            let r = Rules::preset(p);
            KEYS.iter().filter(|k| r.get(k.name).unwrap() != d.get(k.name).unwrap()).map(|k| k.name).collect()
        };
        assert_eq!(differs(Preset::Sharp), ["nines", "mandatory_announcement"]);
        assert_eq!(
            differs(Preset::Freedoko),
            [
                "dulle",
                "solos",
                "soloist_leads",
                "poverty",
                "piglets",
                "throw_in_nines",
                "re_kontra",
                "extra_points",
                "compulsory_solos",
                "games_per_session",
                "bock",
                "bock_triggers",
                "bock_stacking"
            ]
        );
        let f = Rules::preset(Preset::Freedoko);
        assert_eq!(f.get("dulle").unwrap(), "second-wins");
        assert_eq!(f.get("bock_triggers").unwrap(), "tie");
        assert_eq!(Preset::from_name("FreeDoko").unwrap(), Preset::Freedoko);
        // a record of a deal under each preset names it and reads back the same
        for p in Preset::ALL {
            let r = Rules::preset(p);
            assert_eq!(crate::record::rules_from_json(Some(&crate::record::rules_to_json(&r))).unwrap(), r);
        }
    }

    #[test]
    fn casual_differs_where_the_spec_says() {
        let c = Rules::preset(Preset::Casual);
        let mut diff: Vec<&str> = Vec::new();
        let d = Rules::preset(Preset::Ddv);
        for k in KEYS {
            if c.get(k.name).unwrap() != d.get(k.name).unwrap() {
                diff.push(k.name);
            }
        }
        assert_eq!(diff, ["soloist_leads", "poverty", "piglets", "extra_points", "compulsory_solos"]);
        assert!(c.extra_points.contains(Extra::FoxLastTrick));
    }
}
