def solution(apis, requester):
    me = apis.supervisor.show_profile()
    passwords = {a["account_name"]: a["password"] for a in apis.supervisor.show_account_passwords()}
    token = apis.notes.login(username=me["email"], password=passwords["notes"])["access_token"]
    apis.notes.create_note(access_token=token, title="Reading list", content="Dune, Emma, Kindred.")
    apis.supervisor.complete_task()
