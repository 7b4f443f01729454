"""Use cases of the app, one plain function each: ``fn(session, user_id, ...)``.

Every service checks that the acting user belongs to the group concerned (to
anyone else the group, its players, games and rounds do not exist), validates
its input fully, then writes in one transaction of its own and returns small
frozen views (:mod:`dutch_app.services.views`), never ORM objects.
"""
