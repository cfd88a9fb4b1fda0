"""Template filters for prices and numbers: `configurator.money`, the one formatting helper."""

from decimal import Decimal, InvalidOperation

from django import template

from configurator import money

register = template.Library()


def _number(value) -> money.Amount | None:
    """Return a stored figure as a number: a quote's frozen lines hold decimals as text."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float | Decimal):
        return value
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


@register.filter
def cny(amount) -> str:
    """A monthly price in whole yuan, in the request's language ("42,430 元")."""
    number = _number(amount)
    return "" if number is None else money.cny(number)


@register.filter
def cny_exact(amount) -> str:
    """An amount in yuan with two decimals, in the request's language ("40,308.50 元")."""
    number = _number(amount)
    return "" if number is None else money.cny_exact(number)


@register.filter
def amount(value, decimals: int = 0) -> str:
    """A number grouped as the request's language groups it, with `decimals` places: for a
    column whose header names the currency."""
    number = _number(value)
    return "" if number is None else money.grouped(number, int(decimals))
