"""The budget one rendering shares: characters the server sent, special characters marked, blocks.

Making text visible and cutting it is :meth:`anvia_nb.policy.ShowPolicy.prepare`; masking is the
policy's too. What stays here is the count, across every block of one result, of what is left.
"""

from __future__ import annotations

from dataclasses import dataclass

from anvia_nb._visible import Prepared

__all__ = ["Budget"]


@dataclass
class Budget:
    """What one rendering may still show; shared by every block of a bundle.

    ``remaining`` counts characters the server sent (layout is free); ``markers`` the special
    characters still to be marked (each is styled markup); ``blocks`` the content items still shown.
    """

    remaining: int
    markers: int
    blocks: int

    def spend(self, amount: int) -> None:
        self.remaining = max(0, self.remaining - amount)

    def spend_prepared(self, prepared: Prepared) -> None:
        self.remaining = max(0, self.remaining - prepared.cost)  # spend's, without a second call
        if prepared.markers:
            self.markers = max(0, self.markers - prepared.markers)

    @property
    def exhausted(self) -> bool:
        return self.remaining <= 0 or self.blocks <= 0
