"""Numbers inserted into the prose at build time: ``<span data-claim="NAME"></span>`` gets NAME's value."""

import pytest

from pycore.experiments import lr_sweep, reproduce_table, train_runs
from pycore.sitegen import claims


def test_an_empty_claim_span_gets_its_value_and_keeps_its_name():
    share = reproduce_table.saturated_shares()[256]
    text = 'Without it, <span data-claim="reproduce.saturated.none.256.percent"></span> of rows saturate.'
    assert claims.fill(text) == (f'Without it, <span data-claim="reproduce.saturated.none.256.percent">'
                                 f'{round(100 * share.value)}%</span> of rows saturate.')
    assert claims.value("reproduce.saturated.none.512") == reproduce_table.show(reproduce_table.saturated_shares()[512])


def test_a_span_that_already_holds_text_is_left_alone():
    text = '<span data-claim="n">8</span> keys'
    assert claims.fill(text) == text


def test_an_unknown_name_fails_with_the_nearest_names():
    with pytest.raises(claims.ClaimError, match=r"unknown claim 'reproduce\.saturated\.none\.257'; did you mean "
                                                r"reproduce\.saturated\.none\.256"):
        claims.fill('<span data-claim="reproduce.saturated.none.257"></span>')


def test_the_training_claims_are_the_experiments_numbers():
    s, g = lr_sweep.sweep(), train_runs.grid()
    assert claims.value("lr-sweep.best.adam.64.dk.rate") == lr_sweep.rate(s.best("adam", 64, "dk")[0])
    assert claims.value("lr-sweep.one-rate.sgd.sqrt.cost") == lr_sweep.num(lr_sweep.one_rate(s, "sgd", "sqrt")[1])
    assert claims.value("train-grid.paired.adam.16.none") == train_runs.difference(g, "adam", 16, "sqrt", "none")
    assert claims.value("train-grid.range.adam.256.none") == train_runs.spread(g.at("adam", 256, "none"))
    assert claims.value("train-grid.seeds") == str(len(g.seeds)) == "20"
    assert len(claims.names()) == len(set(claims.names())) > 100
