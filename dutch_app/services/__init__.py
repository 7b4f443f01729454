"""Use cases of the app, one plain function each: ``fn(session, user_id, ...)``.

Every service checks that the acting user belongs to the group concerned (to
anyone else the group, its players, games and rounds do not exist), validates
its input fully, writes through the session it is given and returns small
frozen views (:mod:`dutch_app.services.views`), never ORM objects. The caller
owns the transaction: it runs the service with
:func:`dutch_app.services.unit_of_work.perform`, which commits, rolls back or
retries the whole call.
"""
