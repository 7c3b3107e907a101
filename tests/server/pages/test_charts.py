"""The statistics page's charts: every table column headed, and a chart of one game not empty."""

from __future__ import annotations

import re

from okgin.server.pages.charts import WIDTH, bar_chart, line_chart


def test_every_table_column_has_a_heading() -> None:
    for chart in (line_chart("p", "Points", [("Game 1", 3.5), ("Game 2", -2)], "points"),
                  bar_chart("b", "Won", [("Games won", 2), ("Games lost", 1)], "count", label="Result")):
        headings = re.findall(r"<th scope=col>(.*?)</th>", chart)
        assert len(headings) == 2 and all(headings), headings
    one = line_chart("p", "P", [("Game 1", 1)], "points")
    assert "<th scope=col>Game</th><th scope=col>points</th>" in one


def test_a_lone_point_is_drawn_in_the_middle_big_and_with_its_value() -> None:
    chart = line_chart("p", "Points", [("Game 1", 4.5)], "points")
    (cx, radius), = re.findall(r'<circle class="dot" cx="([\d.]+)" cy="[\d.]+" r="(\d+)"', chart)
    assert float(cx) == WIDTH / 2 and int(radius) >= 5
    assert re.search(r'<text class="tick value-label"[^>]*>4.5</text>', chart)
    assert re.findall(r'<text class="tick label"[^>]*>([^<]*)</text>', chart) == ["Game 1"]


def test_many_points_keep_small_dots_and_at_most_about_eight_labels() -> None:
    chart = line_chart("p", "Points", [(f"Game {i}", i) for i in range(1, 31)], "points")
    assert chart.count('r="3"') == 30 and "value-label" not in chart
    labels = re.findall(r'<text class="tick label"[^>]*>([^<]*)</text>', chart)
    assert 2 <= len(labels) <= 9 and labels[0] == "Game 1" and labels[-1] == "Game 30"


def test_a_bar_charts_table_is_headed_by_its_label_not_its_last_rows() -> None:
    chart = bar_chart("b", "Won", [("Games won", 2), ("Hands not won", 1)], "count", label="Result")
    assert re.findall(r"<th scope=col>(.*?)</th>", chart) == ["Result", "count"]
